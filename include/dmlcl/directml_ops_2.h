/* SPDX-License-Identifier: MIT */
/*
 * dmlcl/directml_ops_2.h: the operator descriptions DirectML added at
 * feature levels 2.0 and 2.1. Part of dmlcl/directml.h; include that instead.
 */
#ifndef DMLCL_DIRECTML_OPS_2_H
#define DMLCL_DIRECTML_OPS_2_H

#ifndef DMLCL_DIRECTML_H
#error "include dmlcl/directml.h, not dmlcl/directml_ops_2.h"
#endif

#if DML_TARGET_VERSION >= 0x2000

typedef struct DML_ELEMENT_WISE_SIGN_OPERATOR_DESC {
    const DML_TENSOR_DESC *InputTensor;
    const DML_TENSOR_DESC *OutputTensor;
} DML_ELEMENT_WISE_SIGN_OPERATOR_DESC;

typedef struct DML_ELEMENT_WISE_IS_NAN_OPERATOR_DESC {
    const DML_TENSOR_DESC *InputTensor;
    const DML_TENSOR_DESC *OutputTensor;
} DML_ELEMENT_WISE_IS_NAN_OPERATOR_DESC;

typedef struct DML_ELEMENT_WISE_ERF_OPERATOR_DESC {
    const DML_TENSOR_DESC *InputTensor;
    const DML_TENSOR_DESC *OutputTensor;
    const DML_SCALE_BIAS *ScaleBias;
} DML_ELEMENT_WISE_ERF_OPERATOR_DESC;

typedef struct DML_ELEMENT_WISE_SINH_OPERATOR_DESC {
    const DML_TENSOR_DESC *InputTensor;
    const DML_TENSOR_DESC *OutputTensor;
    const DML_SCALE_BIAS *ScaleBias;
} DML_ELEMENT_WISE_SINH_OPERATOR_DESC;

typedef struct DML_ELEMENT_WISE_COSH_OPERATOR_DESC {
    const DML_TENSOR_DESC *InputTensor;
    const DML_TENSOR_DESC *OutputTensor;
    const DML_SCALE_BIAS *ScaleBias;
} DML_ELEMENT_WISE_COSH_OPERATOR_DESC;

typedef struct DML_ELEMENT_WISE_TANH_OPERATOR_DESC {
    const DML_TENSOR_DESC *InputTensor;
    const DML_TENSOR_DESC *OutputTensor;
    const DML_SCALE_BIAS *ScaleBias;
} DML_ELEMENT_WISE_TANH_OPERATOR_DESC;

typedef struct DML_ELEMENT_WISE_ASINH_OPERATOR_DESC {
    const DML_TENSOR_DESC *InputTensor;
    const DML_TENSOR_DESC *OutputTensor;
    const DML_SCALE_BIAS *ScaleBias;
} DML_ELEMENT_WISE_ASINH_OPERATOR_DESC;

typedef struct DML_ELEMENT_WISE_ACOSH_OPERATOR_DESC {
    const DML_TENSOR_DESC *InputTensor;
    const DML_TENSOR_DESC *OutputTensor;
    const DML_SCALE_BIAS *ScaleBias;
} DML_ELEMENT_WISE_ACOSH_OPERATOR_DESC;

typedef struct DML_ELEMENT_WISE_ATANH_OPERATOR_DESC {
    const DML_TENSOR_DESC *InputTensor;
    const DML_TENSOR_DESC *OutputTensor;
    const DML_SCALE_BIAS *ScaleBias;
} DML_ELEMENT_WISE_ATANH_OPERATOR_DESC;

typedef struct DML_ELEMENT_WISE_IF_OPERATOR_DESC {
    const DML_TENSOR_DESC *ConditionTensor;
    const DML_TENSOR_DESC *ATensor;
    const DML_TENSOR_DESC *BTensor;
    const DML_TENSOR_DESC *OutputTensor;
} DML_ELEMENT_WISE_IF_OPERATOR_DESC;

typedef struct DML_ACTIVATION_SHRINK_OPERATOR_DESC {
    const DML_TENSOR_DESC *InputTensor;
    const DML_TENSOR_DESC *OutputTensor;
    FLOAT Bias;
    FLOAT Threshold;
} DML_ACTIVATION_SHRINK_OPERATOR_DESC;

typedef struct DML_MAX_POOLING1_OPERATOR_DESC {
    const DML_TENSOR_DESC *InputTensor;
    const DML_TENSOR_DESC *OutputTensor;
    const DML_TENSOR_DESC *OutputIndicesTensor;
    UINT DimensionCount;
    const UINT *Strides;
    const UINT *WindowSize;
    const UINT *StartPadding;
    const UINT *EndPadding;
} DML_MAX_POOLING1_OPERATOR_DESC;

typedef struct DML_MAX_UNPOOLING_OPERATOR_DESC {
    const DML_TENSOR_DESC *InputTensor;
    const DML_TENSOR_DESC *IndicesTensor;
    const DML_TENSOR_DESC *OutputTensor;
} DML_MAX_UNPOOLING_OPERATOR_DESC;

typedef struct DML_DIAGONAL_MATRIX_OPERATOR_DESC {
    const DML_TENSOR_DESC *OutputTensor;
    INT Offset;
    FLOAT Value;
} DML_DIAGONAL_MATRIX_OPERATOR_DESC;

typedef struct DML_SCATTER_OPERATOR_DESC {
    const DML_TENSOR_DESC *InputTensor;
    const DML_TENSOR_DESC *IndicesTensor;
    const DML_TENSOR_DESC *UpdatesTensor;
    const DML_TENSOR_DESC *OutputTensor;
    UINT Axis;
} DML_SCATTER_OPERATOR_DESC;

typedef struct DML_ONE_HOT_OPERATOR_DESC {
    const DML_TENSOR_DESC *IndicesTensor;
    const DML_TENSOR_DESC *ValuesTensor;
    const DML_TENSOR_DESC *OutputTensor;
    UINT Axis;
} DML_ONE_HOT_OPERATOR_DESC;

typedef struct DML_RESAMPLE_OPERATOR_DESC {
    const DML_TENSOR_DESC *InputTensor;
    const DML_TENSOR_DESC *OutputTensor;
    DML_INTERPOLATION_MODE InterpolationMode;
    UINT ScaleCount;
    const FLOAT *Scales;
} DML_RESAMPLE_OPERATOR_DESC;

#endif /* DML_TARGET_VERSION >= 0x2000 */

#if DML_TARGET_VERSION >= 0x2100

typedef struct DML_ELEMENT_WISE_BIT_SHIFT_LEFT_OPERATOR_DESC {
    const DML_TENSOR_DESC *ATensor;
    const DML_TENSOR_DESC *BTensor;
    const DML_TENSOR_DESC *OutputTensor;
} DML_ELEMENT_WISE_BIT_SHIFT_LEFT_OPERATOR_DESC;

typedef struct DML_ELEMENT_WISE_BIT_SHIFT_RIGHT_OPERATOR_DESC {
    const DML_TENSOR_DESC *ATensor;
    const DML_TENSOR_DESC *BTensor;
    const DML_TENSOR_DESC *OutputTensor;
} DML_ELEMENT_WISE_BIT_SHIFT_RIGHT_OPERATOR_DESC;

typedef struct DML_ELEMENT_WISE_ROUND_OPERATOR_DESC {
    const DML_TENSOR_DESC *InputTensor;
    const DML_TENSOR_DESC *OutputTensor;
    DML_ROUNDING_MODE RoundingMode;
} DML_ELEMENT_WISE_ROUND_OPERATOR_DESC;

typedef struct DML_ELEMENT_WISE_IS_INFINITY_OPERATOR_DESC {
    const DML_TENSOR_DESC *InputTensor;
    const DML_TENSOR_DESC *OutputTensor;
    DML_IS_INFINITY_MODE InfinityMode;
} DML_ELEMENT_WISE_IS_INFINITY_OPERATOR_DESC;

typedef struct DML_ELEMENT_WISE_MODULUS_TRUNCATE_OPERATOR_DESC {
    const DML_TENSOR_DESC *ATensor;
    const DML_TENSOR_DESC *BTensor;
    const DML_TENSOR_DESC *OutputTensor;
} DML_ELEMENT_WISE_MODULUS_TRUNCATE_OPERATOR_DESC;

typedef struct DML_ELEMENT_WISE_MODULUS_FLOOR_OPERATOR_DESC {
    const DML_TENSOR_DESC *ATensor;
    const DML_TENSOR_DESC *BTensor;
    const DML_TENSOR_DESC *OutputTensor;
} DML_ELEMENT_WISE_MODULUS_FLOOR_OPERATOR_DESC;

typedef struct DML_FILL_VALUE_CONSTANT_OPERATOR_DESC {
    const DML_TENSOR_DESC *OutputTensor;
    DML_TENSOR_DATA_TYPE ValueDataType;
    DML_SCALAR_UNION Value;
} DML_FILL_VALUE_CONSTANT_OPERATOR_DESC;

typedef struct DML_FILL_VALUE_SEQUENCE_OPERATOR_DESC {
    const DML_TENSOR_DESC *OutputTensor;
    DML_TENSOR_DATA_TYPE ValueDataType;
    DML_SCALAR_UNION ValueStart;
    DML_SCALAR_UNION ValueDelta;
} DML_FILL_VALUE_SEQUENCE_OPERATOR_DESC;

typedef struct DML_CUMULATIVE_SUMMATION_OPERATOR_DESC {
    const DML_TENSOR_DESC *InputTensor;
    const DML_TENSOR_DESC *OutputTensor;
    UINT Axis;
    DML_AXIS_DIRECTION AxisDirection;
    BOOL HasExclusiveSum;
} DML_CUMULATIVE_SUMMATION_OPERATOR_DESC;

typedef struct DML_REVERSE_SUBSEQUENCES_OPERATOR_DESC {
    const DML_TENSOR_DESC *InputTensor;
    const DML_TENSOR_DESC *SequenceLengthsTensor;
    const DML_TENSOR_DESC *OutputTensor;
    UINT Axis;
} DML_REVERSE_SUBSEQUENCES_OPERATOR_DESC;

typedef struct DML_GATHER_ELEMENTS_OPERATOR_DESC {
    const DML_TENSOR_DESC *InputTensor;
    const DML_TENSOR_DESC *IndicesTensor;
    const DML_TENSOR_DESC *OutputTensor;
    UINT Axis;
} DML_GATHER_ELEMENTS_OPERATOR_DESC;

/* SCATTER's newer name, matching GATHER_ELEMENTS (a `using` alias in DirectML). */
typedef DML_SCATTER_OPERATOR_DESC DML_SCATTER_ELEMENTS_OPERATOR_DESC;

typedef struct DML_GATHER_ND_OPERATOR_DESC {
    const DML_TENSOR_DESC *InputTensor;
    const DML_TENSOR_DESC *IndicesTensor;
    const DML_TENSOR_DESC *OutputTensor;
    UINT InputDimensionCount;
    UINT IndicesDimensionCount;
} DML_GATHER_ND_OPERATOR_DESC;

typedef struct DML_SCATTER_ND_OPERATOR_DESC {
    const DML_TENSOR_DESC *InputTensor;
    const DML_TENSOR_DESC *IndicesTensor;
    const DML_TENSOR_DESC *UpdatesTensor;
    const DML_TENSOR_DESC *OutputTensor;
    UINT InputDimensionCount;
    UINT IndicesDimensionCount;
} DML_SCATTER_ND_OPERATOR_DESC;

typedef struct DML_MAX_POOLING2_OPERATOR_DESC {
    const DML_TENSOR_DESC *InputTensor;
    const DML_TENSOR_DESC *OutputTensor;
    const DML_TENSOR_DESC *OutputIndicesTensor;
    UINT DimensionCount;
    const UINT *Strides;
    const UINT *WindowSize;
    const UINT *StartPadding;
    const UINT *EndPadding;
    const UINT *Dilations;
} DML_MAX_POOLING2_OPERATOR_DESC;

typedef struct DML_SLICE1_OPERATOR_DESC {
    const DML_TENSOR_DESC *InputTensor;
    const DML_TENSOR_DESC *OutputTensor;
    UINT DimensionCount;
    const UINT *InputWindowOffsets;
    const UINT *InputWindowSizes;
    const INT *InputWindowStrides; /* signed: negative reads the window backwards */
} DML_SLICE1_OPERATOR_DESC;

typedef struct DML_TOP_K1_OPERATOR_DESC {
    const DML_TENSOR_DESC *InputTensor;
    const DML_TENSOR_DESC *OutputValueTensor;
    const DML_TENSOR_DESC *OutputIndexTensor;
    UINT Axis;
    UINT K;
    DML_AXIS_DIRECTION AxisDirection;
} DML_TOP_K1_OPERATOR_DESC;

typedef struct DML_DEPTH_TO_SPACE1_OPERATOR_DESC {
    const DML_TENSOR_DESC *InputTensor;
    const DML_TENSOR_DESC *OutputTensor;
    UINT BlockSize;
    DML_DEPTH_SPACE_ORDER Order;
} DML_DEPTH_TO_SPACE1_OPERATOR_DESC;

typedef struct DML_SPACE_TO_DEPTH1_OPERATOR_DESC {
    const DML_TENSOR_DESC *InputTensor;
    const DML_TENSOR_DESC *OutputTensor;
    UINT BlockSize;
    DML_DEPTH_SPACE_ORDER Order;
} DML_SPACE_TO_DEPTH1_OPERATOR_DESC;

typedef struct DML_MEAN_VARIANCE_NORMALIZATION1_OPERATOR_DESC {
    const DML_TENSOR_DESC *InputTensor;
    const DML_TENSOR_DESC *ScaleTensor;
    const DML_TENSOR_DESC *BiasTensor;
    const DML_TENSOR_DESC *OutputTensor;
    UINT AxisCount;
    const UINT *Axes;
    BOOL NormalizeVariance;
    FLOAT Epsilon;
    const DML_OPERATOR_DESC *FusedActivation;
} DML_MEAN_VARIANCE_NORMALIZATION1_OPERATOR_DESC;

typedef struct DML_RESAMPLE1_OPERATOR_DESC {
    const DML_TENSOR_DESC *InputTensor;
    const DML_TENSOR_DESC *OutputTensor;
    DML_INTERPOLATION_MODE InterpolationMode;
    UINT DimensionCount;
    const FLOAT *Scales;
    const FLOAT *InputPixelOffsets;
    const FLOAT *OutputPixelOffsets;
} DML_RESAMPLE1_OPERATOR_DESC;

typedef struct DML_MATRIX_MULTIPLY_INTEGER_OPERATOR_DESC {
    const DML_TENSOR_DESC *ATensor;
    const DML_TENSOR_DESC *AZeroPointTensor;
    const DML_TENSOR_DESC *BTensor;
    const DML_TENSOR_DESC *BZeroPointTensor;
    const DML_TENSOR_DESC *OutputTensor;
} DML_MATRIX_MULTIPLY_INTEGER_OPERATOR_DESC;

typedef struct DML_QUANTIZED_LINEAR_MATRIX_MULTIPLY_OPERATOR_DESC {
    const DML_TENSOR_DESC *ATensor;
    const DML_TENSOR_DESC *AScaleTensor;
    const DML_TENSOR_DESC *AZeroPointTensor;
    const DML_TENSOR_DESC *BTensor;
    const DML_TENSOR_DESC *BScaleTensor;
    const DML_TENSOR_DESC *BZeroPointTensor;
    const DML_TENSOR_DESC *OutputScaleTensor;
    const DML_TENSOR_DESC *OutputZeroPointTensor;
    const DML_TENSOR_DESC *OutputTensor;
} DML_QUANTIZED_LINEAR_MATRIX_MULTIPLY_OPERATOR_DESC;

typedef struct DML_CONVOLUTION_INTEGER_OPERATOR_DESC {
    const DML_TENSOR_DESC *InputTensor;
    const DML_TENSOR_DESC *InputZeroPointTensor;
    const DML_TENSOR_DESC *FilterTensor;
    const DML_TENSOR_DESC *FilterZeroPointTensor;
    const DML_TENSOR_DESC *OutputTensor;
    UINT DimensionCount;
    const UINT *Strides;
    const UINT *Dilations;
    const UINT *StartPadding;
    const UINT *EndPadding;
    UINT GroupCount;
} DML_CONVOLUTION_INTEGER_OPERATOR_DESC;

typedef struct DML_QUANTIZED_LINEAR_CONVOLUTION_OPERATOR_DESC {
    const DML_TENSOR_DESC *InputTensor;
    const DML_TENSOR_DESC *InputScaleTensor;
    const DML_TENSOR_DESC *InputZeroPointTensor;
    const DML_TENSOR_DESC *FilterTensor;
    const DML_TENSOR_DESC *FilterScaleTensor;
    const DML_TENSOR_DESC *FilterZeroPointTensor;
    const DML_TENSOR_DESC *BiasTensor;
    const DML_TENSOR_DESC *OutputScaleTensor;
    const DML_TENSOR_DESC *OutputZeroPointTensor;
    const DML_TENSOR_DESC *OutputTensor;
    UINT DimensionCount;
    const UINT *Strides;
    const UINT *Dilations;
    const UINT *StartPadding;
    const UINT *EndPadding;
    UINT GroupCount;
} DML_QUANTIZED_LINEAR_CONVOLUTION_OPERATOR_DESC;

#endif /* DML_TARGET_VERSION >= 0x2100 */

#endif /* DMLCL_DIRECTML_OPS_2_H */
