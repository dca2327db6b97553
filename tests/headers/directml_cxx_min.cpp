// SPDX-License-Identifier: MIT
/*
 * <DirectML.h> alone, without the stubs folder on the include path and at
 * DML_TARGET_VERSION 0x1000: IDMLDevice1 and the graph types are absent
 * (declared here with another meaning, which would clash otherwise).
 */
#include <DirectML.h>

typedef char IDMLDevice1;
typedef char DML_GRAPH_DESC;
enum { DML_FEATURE_FEATURE_LEVELS = -1 };

static_assert(DML_TARGET_VERSION == 0x1000, "the target version given");
static_assert(sizeof(DML_BINDING_TABLE_DESC) == 32, "DML_BINDING_TABLE_DESC");

HRESULT probe_create(ID3D12Device *device, IDMLDevice **out)
{
    return DMLCreateDevice(device, DML_CREATE_DEVICE_FLAG_NONE, IID_PPV_ARGS(out));
}
