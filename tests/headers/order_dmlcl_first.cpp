// SPDX-License-Identifier: MIT
/*
 * The C API's header, then <DirectML.h>, then WRL: the Windows typedefs and
 * HRESULT macros of dmlcl.h and of winadapter.h must agree, whichever comes
 * first (order_directml_first.cpp is the other order). Also: the D3D12 types
 * are the OpenCL and dmlcl ones, and a C++ program may define its own
 * DMLCalcBufferTensorSize, as DirectML's samples do.
 */
#include <dmlcl/dmlcl.h>

#include <DirectML.h>

#include <wrl/client.h>

#include <type_traits>

#include "checks.h"

/* The sample's helper, defined by the program (DirectML.h declares none). */
static UINT64 DMLCalcBufferTensorSize(DML_TENSOR_DATA_TYPE, UINT count, const UINT *sizes,
                                      const UINT *)
{
    UINT64 n = 4;
    for (UINT i = 0; i < count; ++i)
        n *= sizes[i];
    return n + 1000; /* tells the program's copy from dmlcl's */
}

int check_order_dmlcl_first()
{
    static_assert(std::is_same<ID3D12Resource *, cl_mem>::value, "ID3D12Resource* is a cl_mem");
    static_assert(std::is_same<ID3D12CommandList *, cl_command_queue>::value,
                  "ID3D12CommandList* is a cl_command_queue");
    static_assert(std::is_same<ID3D12Device, dmlcl_device>::value,
                  "ID3D12Device is a dmlcl_device");
    static_assert(std::is_same<BOOL, uint32_t>::value && std::is_same<HRESULT, int32_t>::value,
                  "winadapter's scalar types");
    int before = checks_failed;
    CHECK(E_INVALIDARG == static_cast<HRESULT>(0x80070057u), "E_INVALIDARG");
    CHECK(DXGI_ERROR_UNSUPPORTED == static_cast<HRESULT>(0x887A0004u), "DXGI_ERROR_UNSUPPORTED");
    CHECK(FAILED(E_NOINTERFACE) && SUCCEEDED(S_FALSE), "FAILED / SUCCEEDED");
    const UINT sizes[2] = {2, 3};
    CHECK(DMLCalcBufferTensorSize(DML_TENSOR_DATA_TYPE_FLOAT32, 2, sizes, nullptr) == 1024,
          "the program's own DMLCalcBufferTensorSize wins over dmlcl's");
    CHECK(dmlcl_calc_buffer_tensor_size(DML_TENSOR_DATA_TYPE_FLOAT16, 2, sizes, nullptr) == 12,
          "dmlcl_calc_buffer_tensor_size in C++");
    Microsoft::WRL::ComPtr<IDMLBindingTable> table;
    CHECK(!table, "ComPtr of a dmlcl interface");
    return checks_failed - before;
}
