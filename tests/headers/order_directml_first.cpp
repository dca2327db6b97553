// SPDX-License-Identifier: MIT
/*
 * <DirectML.h>, then the C API's header, then WRL: the other order of
 * order_dmlcl_first.cpp, with the same checks, except that this program has
 * no DMLCalcBufferTensorSize of its own: dmlcl's serves.
 */
#include <DirectML.h>

#include <dmlcl/dmlcl.h>

#include <wrl/client.h>

#include <type_traits>

#include "checks.h"

int check_order_directml_first()
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
    CHECK(DMLCalcBufferTensorSize(DML_TENSOR_DATA_TYPE_FLOAT32, 2, sizes, nullptr) == 24,
          "dmlcl's DMLCalcBufferTensorSize where the program has none");
    CHECK(dmlcl_calc_buffer_tensor_size(DML_TENSOR_DATA_TYPE_FLOAT16, 2, sizes, nullptr) == 12,
          "dmlcl_calc_buffer_tensor_size in C++");
    Microsoft::WRL::ComPtr<IDMLBindingTable> table;
    CHECK(!table, "ComPtr of a dmlcl interface");
    return checks_failed - before;
}
