/* SPDX-License-Identifier: MIT */
/*
 * The mirrored DirectML surface: struct layouts, member types, enum values,
 * constants and HRESULT numbers, each checked against the tables in
 * shared/reference/directml-facts.md (sections 1 and 2). A mismatch here
 * breaks binary compatibility with code written for DirectML.h.
 */
#include <criterion/criterion.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "dmlcl/dmlcl.h"

#define MEMBER_SIZE(type, member) sizeof(((type *)0)->member)

/* _Generic: 1 when the member has exactly the given type. */
#define MEMBER_IS(type, member, expected) _Generic(((type *)0)->member, expected : 1, default : 0)

#define CHECK_OFFSET(type, member, off)                                                         \
    cr_expect_eq(offsetof(type, member), (size_t)(off), "offsetof(%s, %s) is %zu, expected %d", \
                 #type, #member, offsetof(type, member), (int)(off))

#define CHECK_SIZE(type, size)                                                          \
    cr_expect_eq(sizeof(type), (size_t)(size), "sizeof(%s) is %zu, expected %d", #type, \
                 sizeof(type), (int)(size))

/* The facts' offsets are for 64-bit targets (LP64 and LLP64 agree). */
#if UINTPTR_MAX == UINT64_MAX

Test(abi, tensor_desc)
{
    CHECK_SIZE(DML_TENSOR_DESC, 16);
    CHECK_OFFSET(DML_TENSOR_DESC, Type, 0);
    CHECK_OFFSET(DML_TENSOR_DESC, Desc, 8);
}

Test(abi, buffer_tensor_desc)
{
    CHECK_SIZE(DML_BUFFER_TENSOR_DESC, 48);
    CHECK_OFFSET(DML_BUFFER_TENSOR_DESC, DataType, 0);
    CHECK_OFFSET(DML_BUFFER_TENSOR_DESC, Flags, 4);
    CHECK_OFFSET(DML_BUFFER_TENSOR_DESC, DimensionCount, 8);
    CHECK_OFFSET(DML_BUFFER_TENSOR_DESC, Sizes, 16);
    CHECK_OFFSET(DML_BUFFER_TENSOR_DESC, Strides, 24);
    CHECK_OFFSET(DML_BUFFER_TENSOR_DESC, TotalTensorSizeInBytes, 32);
    CHECK_OFFSET(DML_BUFFER_TENSOR_DESC, GuaranteedBaseOffsetAlignment, 40);
}

Test(abi, operator_desc)
{
    CHECK_SIZE(DML_OPERATOR_DESC, 16);
    CHECK_OFFSET(DML_OPERATOR_DESC, Type, 0);
    CHECK_OFFSET(DML_OPERATOR_DESC, Desc, 8);
}

Test(abi, gather_desc)
{
    CHECK_SIZE(DML_GATHER_OPERATOR_DESC, 32);
    CHECK_OFFSET(DML_GATHER_OPERATOR_DESC, InputTensor, 0);
    CHECK_OFFSET(DML_GATHER_OPERATOR_DESC, IndicesTensor, 8);
    CHECK_OFFSET(DML_GATHER_OPERATOR_DESC, OutputTensor, 16);
    CHECK_OFFSET(DML_GATHER_OPERATOR_DESC, Axis, 24);
    CHECK_OFFSET(DML_GATHER_OPERATOR_DESC, IndexDimensions, 28);
}

Test(abi, gather_elements_desc)
{
    CHECK_SIZE(DML_GATHER_ELEMENTS_OPERATOR_DESC, 32);
    CHECK_OFFSET(DML_GATHER_ELEMENTS_OPERATOR_DESC, InputTensor, 0);
    CHECK_OFFSET(DML_GATHER_ELEMENTS_OPERATOR_DESC, IndicesTensor, 8);
    CHECK_OFFSET(DML_GATHER_ELEMENTS_OPERATOR_DESC, OutputTensor, 16);
    CHECK_OFFSET(DML_GATHER_ELEMENTS_OPERATOR_DESC, Axis, 24);
}

Test(abi, gather_nd_desc)
{
    CHECK_SIZE(DML_GATHER_ND_OPERATOR_DESC, 32);
    CHECK_OFFSET(DML_GATHER_ND_OPERATOR_DESC, InputTensor, 0);
    CHECK_OFFSET(DML_GATHER_ND_OPERATOR_DESC, IndicesTensor, 8);
    CHECK_OFFSET(DML_GATHER_ND_OPERATOR_DESC, OutputTensor, 16);
    CHECK_OFFSET(DML_GATHER_ND_OPERATOR_DESC, InputDimensionCount, 24);
    CHECK_OFFSET(DML_GATHER_ND_OPERATOR_DESC, IndicesDimensionCount, 28);
}

Test(abi, gather_nd1_desc)
{
    CHECK_SIZE(DML_GATHER_ND1_OPERATOR_DESC, 40);
    CHECK_OFFSET(DML_GATHER_ND1_OPERATOR_DESC, InputTensor, 0);
    CHECK_OFFSET(DML_GATHER_ND1_OPERATOR_DESC, IndicesTensor, 8);
    CHECK_OFFSET(DML_GATHER_ND1_OPERATOR_DESC, OutputTensor, 16);
    CHECK_OFFSET(DML_GATHER_ND1_OPERATOR_DESC, InputDimensionCount, 24);
    CHECK_OFFSET(DML_GATHER_ND1_OPERATOR_DESC, IndicesDimensionCount, 28);
    CHECK_OFFSET(DML_GATHER_ND1_OPERATOR_DESC, BatchDimensionCount, 32);
}

Test(abi, slice_desc)
{
    CHECK_SIZE(DML_SLICE_OPERATOR_DESC, 48);
    CHECK_OFFSET(DML_SLICE_OPERATOR_DESC, InputTensor, 0);
    CHECK_OFFSET(DML_SLICE_OPERATOR_DESC, OutputTensor, 8);
    CHECK_OFFSET(DML_SLICE_OPERATOR_DESC, DimensionCount, 16);
    CHECK_OFFSET(DML_SLICE_OPERATOR_DESC, Offsets, 24);
    CHECK_OFFSET(DML_SLICE_OPERATOR_DESC, Sizes, 32);
    CHECK_OFFSET(DML_SLICE_OPERATOR_DESC, Strides, 40);
}

Test(abi, slice1_desc)
{
    CHECK_SIZE(DML_SLICE1_OPERATOR_DESC, 48);
    CHECK_OFFSET(DML_SLICE1_OPERATOR_DESC, InputTensor, 0);
    CHECK_OFFSET(DML_SLICE1_OPERATOR_DESC, OutputTensor, 8);
    CHECK_OFFSET(DML_SLICE1_OPERATOR_DESC, DimensionCount, 16);
    CHECK_OFFSET(DML_SLICE1_OPERATOR_DESC, InputWindowOffsets, 24);
    CHECK_OFFSET(DML_SLICE1_OPERATOR_DESC, InputWindowSizes, 32);
    CHECK_OFFSET(DML_SLICE1_OPERATOR_DESC, InputWindowStrides, 40);
}

Test(abi, identity_and_scale_bias)
{
    CHECK_SIZE(DML_ELEMENT_WISE_IDENTITY_OPERATOR_DESC, 24);
    CHECK_OFFSET(DML_ELEMENT_WISE_IDENTITY_OPERATOR_DESC, InputTensor, 0);
    CHECK_OFFSET(DML_ELEMENT_WISE_IDENTITY_OPERATOR_DESC, OutputTensor, 8);
    CHECK_OFFSET(DML_ELEMENT_WISE_IDENTITY_OPERATOR_DESC, ScaleBias, 16);
    CHECK_SIZE(DML_SCALE_BIAS, 8);
    CHECK_OFFSET(DML_SCALE_BIAS, Scale, 0);
    CHECK_OFFSET(DML_SCALE_BIAS, Bias, 4);
}

Test(abi, bindings)
{
    CHECK_SIZE(DML_BINDING_DESC, 16);
    CHECK_OFFSET(DML_BINDING_DESC, Type, 0);
    CHECK_OFFSET(DML_BINDING_DESC, Desc, 8);
    CHECK_SIZE(DML_BUFFER_BINDING, 24);
    CHECK_OFFSET(DML_BUFFER_BINDING, Buffer, 0);
    CHECK_OFFSET(DML_BUFFER_BINDING, Offset, 8);
    CHECK_OFFSET(DML_BUFFER_BINDING, SizeInBytes, 16);
    CHECK_SIZE(DML_BUFFER_ARRAY_BINDING, 16);
    CHECK_OFFSET(DML_BUFFER_ARRAY_BINDING, BindingCount, 0);
    CHECK_OFFSET(DML_BUFFER_ARRAY_BINDING, Bindings, 8);
    CHECK_SIZE(DML_BINDING_PROPERTIES, 24);
    CHECK_OFFSET(DML_BINDING_PROPERTIES, RequiredDescriptorCount, 0);
    CHECK_OFFSET(DML_BINDING_PROPERTIES, TemporaryResourceSize, 8);
    CHECK_OFFSET(DML_BINDING_PROPERTIES, PersistentResourceSize, 16);
}

/* Sizes derived from the member lists (UINT/BOOL/enum 4 bytes, pointers 8). */
Test(abi, feature_structs)
{
    CHECK_SIZE(DML_FEATURE_QUERY_TENSOR_DATA_TYPE_SUPPORT, 4);
    CHECK_SIZE(DML_FEATURE_DATA_TENSOR_DATA_TYPE_SUPPORT, 4);
    CHECK_SIZE(DML_FEATURE_QUERY_FEATURE_LEVELS, 16);
    CHECK_OFFSET(DML_FEATURE_QUERY_FEATURE_LEVELS, RequestedFeatureLevelCount, 0);
    CHECK_OFFSET(DML_FEATURE_QUERY_FEATURE_LEVELS, RequestedFeatureLevels, 8);
    CHECK_SIZE(DML_FEATURE_DATA_FEATURE_LEVELS, 4);
    CHECK_SIZE(DML_SCALAR_UNION, 8);
}

#endif /* 64-bit */

Test(abi, scalar_types)
{
    cr_expect_eq(sizeof(UINT), 4);
    cr_expect_eq(sizeof(INT), 4);
    cr_expect_eq(sizeof(UINT64), 8);
    cr_expect_eq(sizeof(FLOAT), 4);
    cr_expect_eq(sizeof(BOOL), 4);
    cr_expect_eq(sizeof(HRESULT), 4);
    cr_expect((HRESULT)-1 < 0, "HRESULT must be signed");
    /* Enums are int-sized. */
    cr_expect_eq(sizeof(DML_TENSOR_DATA_TYPE), 4);
    cr_expect_eq(sizeof(DML_TENSOR_TYPE), 4);
    cr_expect_eq(sizeof(DML_TENSOR_FLAGS), 4);
    cr_expect_eq(sizeof(DML_OPERATOR_TYPE), 4);
    cr_expect_eq(sizeof(DML_BINDING_TYPE), 4);
    cr_expect_eq(sizeof(DML_EXECUTION_FLAGS), 4);
    cr_expect_eq(sizeof(DML_FEATURE_LEVEL), 4);
    cr_expect_eq(sizeof(DML_FEATURE), 4);
}

Test(abi, member_types)
{
    cr_expect(MEMBER_IS(DML_TENSOR_DESC, Desc, const void *));
    cr_expect(MEMBER_IS(DML_BUFFER_TENSOR_DESC, DimensionCount, UINT));
    cr_expect(MEMBER_IS(DML_BUFFER_TENSOR_DESC, Sizes, const UINT *));
    cr_expect(MEMBER_IS(DML_BUFFER_TENSOR_DESC, Strides, const UINT *));
    cr_expect(MEMBER_IS(DML_BUFFER_TENSOR_DESC, TotalTensorSizeInBytes, UINT64));
    cr_expect(MEMBER_IS(DML_BUFFER_TENSOR_DESC, GuaranteedBaseOffsetAlignment, UINT));
    cr_expect(MEMBER_IS(DML_GATHER_OPERATOR_DESC, InputTensor, const DML_TENSOR_DESC *));
    cr_expect(MEMBER_IS(DML_GATHER_OPERATOR_DESC, Axis, UINT));
    cr_expect(MEMBER_IS(DML_GATHER_OPERATOR_DESC, IndexDimensions, UINT));
    cr_expect(MEMBER_IS(DML_SLICE_OPERATOR_DESC, Offsets, const UINT *));
    cr_expect(MEMBER_IS(DML_SLICE_OPERATOR_DESC, Sizes, const UINT *));
    cr_expect(MEMBER_IS(DML_SLICE_OPERATOR_DESC, Strides, const UINT *));
    cr_expect(MEMBER_IS(DML_SLICE1_OPERATOR_DESC, InputWindowOffsets, const UINT *));
    cr_expect(MEMBER_IS(DML_SLICE1_OPERATOR_DESC, InputWindowSizes, const UINT *));
    /* The SLICE1 page says UINT; the header (and this mirror) says signed INT. */
    cr_expect(MEMBER_IS(DML_SLICE1_OPERATOR_DESC, InputWindowStrides, const INT *));
    cr_expect(
        MEMBER_IS(DML_ELEMENT_WISE_IDENTITY_OPERATOR_DESC, ScaleBias, const DML_SCALE_BIAS *));
    cr_expect(MEMBER_IS(DML_SCALE_BIAS, Scale, FLOAT));
    cr_expect(MEMBER_IS(DML_BUFFER_BINDING, Offset, UINT64));
    cr_expect(MEMBER_IS(DML_BUFFER_BINDING, SizeInBytes, UINT64));
    cr_expect(MEMBER_IS(DML_BUFFER_ARRAY_BINDING, Bindings, const DML_BUFFER_BINDING *));
    cr_expect(MEMBER_IS(DML_BINDING_PROPERTIES, TemporaryResourceSize, UINT64));
    cr_expect(MEMBER_IS(DML_BINDING_PROPERTIES, PersistentResourceSize, UINT64));
    cr_expect(MEMBER_IS(DML_FEATURE_DATA_TENSOR_DATA_TYPE_SUPPORT, IsSupported, BOOL));
    cr_expect_eq(MEMBER_SIZE(DML_SCALAR_UNION, Bytes), 8);
}

Test(abi, tensor_data_types)
{
    cr_expect_eq(DML_TENSOR_DATA_TYPE_UNKNOWN, 0);
    cr_expect_eq(DML_TENSOR_DATA_TYPE_FLOAT32, 1);
    cr_expect_eq(DML_TENSOR_DATA_TYPE_FLOAT16, 2);
    cr_expect_eq(DML_TENSOR_DATA_TYPE_UINT32, 3);
    cr_expect_eq(DML_TENSOR_DATA_TYPE_UINT16, 4);
    cr_expect_eq(DML_TENSOR_DATA_TYPE_UINT8, 5);
    cr_expect_eq(DML_TENSOR_DATA_TYPE_INT32, 6);
    cr_expect_eq(DML_TENSOR_DATA_TYPE_INT16, 7);
    cr_expect_eq(DML_TENSOR_DATA_TYPE_INT8, 8);
    cr_expect_eq(DML_TENSOR_DATA_TYPE_FLOAT64, 9);
    cr_expect_eq(DML_TENSOR_DATA_TYPE_UINT64, 10);
    cr_expect_eq(DML_TENSOR_DATA_TYPE_INT64, 11);
    cr_expect_eq(DML_TENSOR_DATA_TYPE_UINT4, 12);
    cr_expect_eq(DML_TENSOR_DATA_TYPE_INT4, 13);
}

Test(abi, small_enums)
{
    cr_expect_eq(DML_TENSOR_TYPE_INVALID, 0);
    cr_expect_eq(DML_TENSOR_TYPE_BUFFER, 1);
    cr_expect_eq(DML_TENSOR_FLAG_NONE, 0x0);
    cr_expect_eq(DML_TENSOR_FLAG_OWNED_BY_DML, 0x1);
    cr_expect_eq(DML_BINDING_TYPE_NONE, 0);
    cr_expect_eq(DML_BINDING_TYPE_BUFFER, 1);
    cr_expect_eq(DML_BINDING_TYPE_BUFFER_ARRAY, 2);
    cr_expect_eq(DML_EXECUTION_FLAG_NONE, 0);
    cr_expect_eq(DML_EXECUTION_FLAG_ALLOW_HALF_PRECISION_COMPUTATION, 0x1);
    cr_expect_eq(DML_EXECUTION_FLAG_DISABLE_META_COMMANDS, 0x2);
    cr_expect_eq(DML_EXECUTION_FLAG_DESCRIPTORS_VOLATILE, 0x4);
    cr_expect_eq(DML_CREATE_DEVICE_FLAG_NONE, 0);
    cr_expect_eq(DML_CREATE_DEVICE_FLAG_DEBUG, 0x1);
    cr_expect_eq(DML_FEATURE_TENSOR_DATA_TYPE_SUPPORT, 0);
    cr_expect_eq(DML_FEATURE_FEATURE_LEVELS, 1);
}

Test(abi, feature_levels)
{
    cr_expect_eq(DML_FEATURE_LEVEL_1_0, 0x1000);
    cr_expect_eq(DML_FEATURE_LEVEL_2_0, 0x2000);
    cr_expect_eq(DML_FEATURE_LEVEL_2_1, 0x2100);
    cr_expect_eq(DML_FEATURE_LEVEL_3_0, 0x3000);
    cr_expect_eq(DML_FEATURE_LEVEL_3_1, 0x3100);
    cr_expect_eq(DML_FEATURE_LEVEL_4_0, 0x4000);
    cr_expect_eq(DML_FEATURE_LEVEL_4_1, 0x4100);
    cr_expect_eq(DML_FEATURE_LEVEL_5_0, 0x5000);
    cr_expect_eq(DML_FEATURE_LEVEL_5_1, 0x5100);
    cr_expect_eq(DML_FEATURE_LEVEL_5_2, 0x5200);
    cr_expect_eq(DML_FEATURE_LEVEL_6_0, 0x6000);
    cr_expect_eq(DML_FEATURE_LEVEL_6_1, 0x6100);
    cr_expect_eq(DML_FEATURE_LEVEL_6_2, 0x6200);
    cr_expect_eq(DML_FEATURE_LEVEL_6_3, 0x6300);
    cr_expect_eq(DML_FEATURE_LEVEL_6_4, 0x6400);
}

Test(abi, operator_types)
{
    cr_expect_eq(DML_OPERATOR_INVALID, 0);
    cr_expect_eq(DML_OPERATOR_ELEMENT_WISE_IDENTITY, 1);
    cr_expect_eq(DML_OPERATOR_ELEMENT_WISE_ADD, 4);
    cr_expect_eq(DML_OPERATOR_ELEMENT_WISE_LOGICAL_XOR, 20);
    cr_expect_eq(DML_OPERATOR_ACTIVATION_IDENTITY, 38);
    cr_expect_eq(DML_OPERATOR_GEMM, 54);
    cr_expect_eq(DML_OPERATOR_SLICE, 60);
    cr_expect_eq(DML_OPERATOR_CAST, 61);
    cr_expect_eq(DML_OPERATOR_SPLIT, 62);
    cr_expect_eq(DML_OPERATOR_JOIN, 63);
    cr_expect_eq(DML_OPERATOR_PADDING, 64);
    cr_expect_eq(DML_OPERATOR_GATHER, 67);
    cr_expect_eq(DML_OPERATOR_TILE, 70);
    cr_expect_eq(DML_OPERATOR_GRU, 78);
    cr_expect_eq(DML_OPERATOR_SCATTER_ELEMENTS, 94);
    cr_expect_eq(DML_OPERATOR_SCATTER, 94);
    cr_expect_eq(DML_OPERATOR_ONE_HOT, 95);
    cr_expect_eq(DML_OPERATOR_FILL_VALUE_CONSTANT, 103);
    cr_expect_eq(DML_OPERATOR_GATHER_ELEMENTS, 107);
    cr_expect_eq(DML_OPERATOR_GATHER_ND, 108);
    cr_expect_eq(DML_OPERATOR_SCATTER_ND, 109);
    cr_expect_eq(DML_OPERATOR_SLICE1, 111);
    cr_expect_eq(DML_OPERATOR_SLICE_GRAD, 135);
    cr_expect_eq(DML_OPERATOR_GATHER_ND1, 140);
}

Test(abi, constants)
{
    cr_expect_eq(DML_TENSOR_DIMENSION_COUNT_MAX, 5);
    cr_expect_eq(DML_TENSOR_DIMENSION_COUNT_MAX1, 8);
    cr_expect_eq(DML_TEMPORARY_BUFFER_ALIGNMENT, 256);
    cr_expect_eq(DML_PERSISTENT_BUFFER_ALIGNMENT, 256);
    cr_expect_eq(DML_MINIMUM_BUFFER_TENSOR_ALIGNMENT, 16);
}

Test(abi, hresult_values)
{
    cr_expect_eq((uint32_t)S_OK, 0x00000000u);
    cr_expect_eq((uint32_t)E_NOINTERFACE, 0x80004002u);
    cr_expect_eq((uint32_t)E_POINTER, 0x80004003u);
    cr_expect_eq((uint32_t)E_FAIL, 0x80004005u);
    cr_expect_eq((uint32_t)E_OUTOFMEMORY, 0x8007000Eu);
    cr_expect_eq((uint32_t)E_INVALIDARG, 0x80070057u);
    cr_expect_eq((uint32_t)DXGI_ERROR_UNSUPPORTED, 0x887A0004u);
    cr_expect_eq((uint32_t)DXGI_ERROR_DEVICE_REMOVED, 0x887A0005u);
}

Test(abi, failed_and_succeeded)
{
    cr_expect(SUCCEEDED(S_OK));
    cr_expect(!FAILED(S_OK));
    cr_expect(SUCCEEDED(S_FALSE));
    cr_expect(!FAILED(S_FALSE));
    const HRESULT errors[] = {E_NOINTERFACE,
                              E_POINTER,
                              E_FAIL,
                              E_OUTOFMEMORY,
                              E_INVALIDARG,
                              DXGI_ERROR_UNSUPPORTED,
                              DXGI_ERROR_DEVICE_REMOVED,
                              DMLCL_E_INDEX_OUT_OF_RANGE};
    for (size_t i = 0; i < sizeof errors / sizeof errors[0]; ++i) {
        cr_expect(FAILED(errors[i]), "FAILED(0x%08X) must be true", (unsigned)errors[i]);
        cr_expect(!SUCCEEDED(errors[i]), "SUCCEEDED(0x%08X) must be false", (unsigned)errors[i]);
    }
}

Test(abi, hresult_names)
{
    cr_expect_str_eq(dmlcl_hresult_name(E_INVALIDARG), "E_INVALIDARG");
    cr_expect_str_eq(dmlcl_hresult_name(S_OK), "S_OK");
    cr_expect_str_eq(dmlcl_hresult_name(E_POINTER), "E_POINTER");
    cr_expect_str_eq(dmlcl_hresult_name(E_OUTOFMEMORY), "E_OUTOFMEMORY");
    cr_expect_str_eq(dmlcl_hresult_name(E_FAIL), "E_FAIL");
    cr_expect_str_eq(dmlcl_hresult_name(DXGI_ERROR_UNSUPPORTED), "DXGI_ERROR_UNSUPPORTED");
    cr_expect_str_eq(dmlcl_hresult_name(DXGI_ERROR_DEVICE_REMOVED), "DXGI_ERROR_DEVICE_REMOVED");
    /* An unknown value is named by its number, never NULL. */
    const char *unknown = dmlcl_hresult_name((HRESULT)0x80001234u);
    cr_assert_not_null(unknown);
    cr_expect(strstr(unknown, "80001234") != NULL, "got \"%s\"", unknown);
}
