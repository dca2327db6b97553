/* SPDX-License-Identifier: MIT */
/*
 * dmlcl/directml_ops_5.h: the operator descriptions DirectML added at
 * feature levels 5.0 to 6.4. Part of dmlcl/directml.h; include that instead.
 */
#ifndef DMLCL_DIRECTML_OPS_5_H
#define DMLCL_DIRECTML_OPS_5_H

#ifndef DMLCL_DIRECTML_H
#error "include dmlcl/directml.h, not dmlcl/directml_ops_5.h"
#endif

#if DML_TARGET_VERSION >= 0x5000

typedef struct DML_ELEMENT_WISE_CLIP1_OPERATOR_DESC {
    const DML_TENSOR_DESC *InputTensor;
    const DML_TENSOR_DESC *OutputTensor;
    const DML_SCALE_BIAS *ScaleBias;
    DML_TENSOR_DATA_TYPE MinMaxDataType;
    DML_SCALAR_UNION Min;
    DML_SCALAR_UNION Max;
} DML_ELEMENT_WISE_CLIP1_OPERATOR_DESC;

typedef struct DML_ELEMENT_WISE_CLIP_GRAD1_OPERATOR_DESC {
    const DML_TENSOR_DESC *InputTensor;
    const DML_TENSOR_DESC *InputGradientTensor;
    const DML_TENSOR_DESC *OutputGradientTensor;
    DML_TENSOR_DATA_TYPE MinMaxDataType;
    DML_SCALAR_UNION Min;
    DML_SCALAR_UNION Max;
} DML_ELEMENT_WISE_CLIP_GRAD1_OPERATOR_DESC;

typedef struct DML_PADDING1_OPERATOR_DESC {
    const DML_TENSOR_DESC *InputTensor;
    const DML_TENSOR_DESC *OutputTensor;
    DML_PADDING_MODE PaddingMode;
    DML_TENSOR_DATA_TYPE PaddingValueDataType;
    DML_SCALAR_UNION PaddingValue;
    UINT DimensionCount;
    const UINT *StartPadding;
    const UINT *EndPadding;
} DML_PADDING1_OPERATOR_DESC;

typedef struct DML_ELEMENT_WISE_NEGATE_OPERATOR_DESC {
    const DML_TENSOR_DESC *InputTensor;
    const DML_TENSOR_DESC *OutputTensor;
} DML_ELEMENT_WISE_NEGATE_OPERATOR_DESC;

#endif /* DML_TARGET_VERSION >= 0x5000 */

#if DML_TARGET_VERSION >= 0x5100

typedef struct DML_ACTIVATION_GELU_OPERATOR_DESC {
    const DML_TENSOR_DESC *InputTensor;
    const DML_TENSOR_DESC *OutputTensor;
} DML_ACTIVATION_GELU_OPERATOR_DESC;

typedef struct DML_ACTIVATION_SOFTMAX1_OPERATOR_DESC {
    const DML_TENSOR_DESC *InputTensor;
    const DML_TENSOR_DESC *OutputTensor;
    UINT AxisCount;
    const UINT *Axes;
} DML_ACTIVATION_SOFTMAX1_OPERATOR_DESC;

typedef struct DML_ACTIVATION_LOG_SOFTMAX1_OPERATOR_DESC {
    const DML_TENSOR_DESC *InputTensor;
    const DML_TENSOR_DESC *OutputTensor;
    UINT AxisCount;
    const UINT *Axes;
} DML_ACTIVATION_LOG_SOFTMAX1_OPERATOR_DESC;

typedef struct DML_ACTIVATION_HARDMAX1_OPERATOR_DESC {
    const DML_TENSOR_DESC *InputTensor;
    const DML_TENSOR_DESC *OutputTensor;
    UINT AxisCount;
    const UINT *Axes;
} DML_ACTIVATION_HARDMAX1_OPERATOR_DESC;

typedef struct DML_RESAMPLE2_OPERATOR_DESC {
    const DML_TENSOR_DESC *InputTensor;
    const DML_TENSOR_DESC *OutputTensor;
    DML_INTERPOLATION_MODE InterpolationMode;
    DML_AXIS_DIRECTION RoundingDirection;
    UINT DimensionCount;
    const FLOAT *Scales;
    const FLOAT *InputPixelOffsets;
    const FLOAT *OutputPixelOffsets;
} DML_RESAMPLE2_OPERATOR_DESC;

typedef struct DML_RESAMPLE_GRAD1_OPERATOR_DESC {
    const DML_TENSOR_DESC *InputGradientTensor;
    const DML_TENSOR_DESC *OutputGradientTensor;
    DML_INTERPOLATION_MODE InterpolationMode;
    DML_AXIS_DIRECTION RoundingDirection;
    UINT DimensionCount;
    const FLOAT *Scales;
    const FLOAT *InputPixelOffsets;
    const FLOAT *OutputPixelOffsets;
} DML_RESAMPLE_GRAD1_OPERATOR_DESC;

typedef struct DML_DIAGONAL_MATRIX1_OPERATOR_DESC {
    const DML_TENSOR_DESC *InputTensor;
    const DML_TENSOR_DESC *OutputTensor;
    DML_TENSOR_DATA_TYPE ValueDataType;
    DML_SCALAR_UNION Value;
    INT DiagonalFillBegin;
    INT DiagonalFillEnd;
} DML_DIAGONAL_MATRIX1_OPERATOR_DESC;

#endif /* DML_TARGET_VERSION >= 0x5100 */

#if DML_TARGET_VERSION >= 0x6100

/* Query/Key/Value come separately or stacked: each pointer may be NULL. */
typedef struct DML_MULTIHEAD_ATTENTION_OPERATOR_DESC {
    const DML_TENSOR_DESC *QueryTensor;
    const DML_TENSOR_DESC *KeyTensor;
    const DML_TENSOR_DESC *ValueTensor;
    const DML_TENSOR_DESC *StackedQueryKeyTensor;
    const DML_TENSOR_DESC *StackedKeyValueTensor;
    const DML_TENSOR_DESC *StackedQueryKeyValueTensor;
    const DML_TENSOR_DESC *BiasTensor;
    const DML_TENSOR_DESC *MaskTensor;
    const DML_TENSOR_DESC *RelativePositionBiasTensor;
    const DML_TENSOR_DESC *PastKeyTensor;
    const DML_TENSOR_DESC *PastValueTensor;
    const DML_TENSOR_DESC *OutputTensor;
    const DML_TENSOR_DESC *OutputPresentKeyTensor;
    const DML_TENSOR_DESC *OutputPresentValueTensor;
    FLOAT Scale;
    FLOAT MaskFilterValue;
    UINT HeadCount;
    DML_MULTIHEAD_ATTENTION_MASK_TYPE MaskType;
} DML_MULTIHEAD_ATTENTION_OPERATOR_DESC;

#endif /* DML_TARGET_VERSION >= 0x6100 */

#if DML_TARGET_VERSION >= 0x6200

typedef struct DML_LP_POOLING1_OPERATOR_DESC {
    const DML_TENSOR_DESC *InputTensor;
    const DML_TENSOR_DESC *OutputTensor;
    UINT DimensionCount;
    const UINT *Strides;
    const UINT *WindowSize;
    const UINT *StartPadding;
    const UINT *EndPadding;
    const UINT *Dilations;
    UINT P;
} DML_LP_POOLING1_OPERATOR_DESC;

typedef struct DML_AVERAGE_POOLING1_OPERATOR_DESC {
    const DML_TENSOR_DESC *InputTensor;
    const DML_TENSOR_DESC *OutputTensor;
    UINT DimensionCount;
    const UINT *Strides;
    const UINT *WindowSize;
    const UINT *StartPadding;
    const UINT *EndPadding;
    const UINT *Dilations;
    BOOL IncludePadding;
} DML_AVERAGE_POOLING1_OPERATOR_DESC;

typedef struct DML_ACTIVATION_SWISH_OPERATOR_DESC {
    const DML_TENSOR_DESC *InputTensor;
    const DML_TENSOR_DESC *OutputTensor;
    FLOAT SigmoidInputScale;
} DML_ACTIVATION_SWISH_OPERATOR_DESC;

typedef struct DML_ACTIVATION_HARD_SWISH_OPERATOR_DESC {
    const DML_TENSOR_DESC *InputTensor;
    const DML_TENSOR_DESC *OutputTensor;
    FLOAT Alpha;
    FLOAT Beta;
} DML_ACTIVATION_HARD_SWISH_OPERATOR_DESC;

typedef struct DML_QUANTIZED_LINEAR_AVERAGE_POOLING_OPERATOR_DESC {
    const DML_TENSOR_DESC *InputTensor;
    const DML_TENSOR_DESC *InputScaleTensor;
    const DML_TENSOR_DESC *InputZeroPointTensor;
    const DML_TENSOR_DESC *OutputScaleTensor;
    const DML_TENSOR_DESC *OutputZeroPointTensor;
    const DML_TENSOR_DESC *OutputTensor;
    UINT DimensionCount;
    const UINT *Strides;
    const UINT *WindowSize;
    const UINT *StartPadding;
    const UINT *EndPadding;
    const UINT *Dilations;
    BOOL IncludePadding;
} DML_QUANTIZED_LINEAR_AVERAGE_POOLING_OPERATOR_DESC;

typedef struct DML_MATRIX_MULTIPLY_INTEGER_TO_FLOAT_OPERATOR_DESC {
    const DML_TENSOR_DESC *ATensor;
    const DML_TENSOR_DESC *AScaleTensor;
    const DML_TENSOR_DESC *AZeroPointTensor;
    const DML_TENSOR_DESC *BTensor;
    const DML_TENSOR_DESC *BScaleTensor;
    const DML_TENSOR_DESC *BZeroPointTensor;
    const DML_TENSOR_DESC *BiasTensor;
    const DML_TENSOR_DESC *OutputTensor;
} DML_MATRIX_MULTIPLY_INTEGER_TO_FLOAT_OPERATOR_DESC;

#endif /* DML_TARGET_VERSION >= 0x6200 */

#if DML_TARGET_VERSION >= 0x6300

typedef struct DML_MEAN_VARIANCE_NORMALIZATION2_OPERATOR_DESC {
    const DML_TENSOR_DESC *InputTensor;
    const DML_TENSOR_DESC *ScaleTensor;
    const DML_TENSOR_DESC *BiasTensor;
    const DML_TENSOR_DESC *OutputTensor;
    UINT AxisCount;
    const UINT *Axes;
    BOOL UseMean;
    BOOL UseVariance;
    FLOAT Epsilon;
    const DML_OPERATOR_DESC *FusedActivation;
} DML_MEAN_VARIANCE_NORMALIZATION2_OPERATOR_DESC;

typedef struct DML_MULTIHEAD_ATTENTION1_OPERATOR_DESC {
    const DML_TENSOR_DESC *QueryTensor;
    const DML_TENSOR_DESC *KeyTensor;
    const DML_TENSOR_DESC *ValueTensor;
    const DML_TENSOR_DESC *StackedQueryKeyTensor;
    const DML_TENSOR_DESC *StackedKeyValueTensor;
    const DML_TENSOR_DESC *StackedQueryKeyValueTensor;
    const DML_TENSOR_DESC *BiasTensor;
    const DML_TENSOR_DESC *MaskTensor;
    const DML_TENSOR_DESC *RelativePositionBiasTensor;
    const DML_TENSOR_DESC *PastKeyTensor;
    const DML_TENSOR_DESC *PastValueTensor;
    const DML_TENSOR_DESC *PastSequenceLengthsTensor;
    const DML_TENSOR_DESC *OutputTensor;
    const DML_TENSOR_DESC *OutputPresentKeyTensor;
    const DML_TENSOR_DESC *OutputPresentValueTensor;
    FLOAT Scale;
    FLOAT MaskFilterValue;
    UINT QueryHeadCount;
    UINT KeyValueHeadCount;
    DML_MULTIHEAD_ATTENTION_MASK_TYPE MaskType;
} DML_MULTIHEAD_ATTENTION1_OPERATOR_DESC;

typedef struct DML_QUANTIZE_OPERATOR_DESC {
    const DML_TENSOR_DESC *InputTensor;
    DML_QUANTIZATION_TYPE QuantizationType;
    UINT QuantizationTensorCount;
    const DML_TENSOR_DESC *QuantizationTensors;
    const DML_TENSOR_DESC *OutputTensor;
} DML_QUANTIZE_OPERATOR_DESC;

typedef struct DML_DEQUANTIZE_OPERATOR_DESC {
    const DML_TENSOR_DESC *InputTensor;
    DML_QUANTIZATION_TYPE QuantizationType;
    UINT QuantizationTensorCount;
    const DML_TENSOR_DESC *QuantizationTensors;
    const DML_TENSOR_DESC *OutputTensor;
} DML_DEQUANTIZE_OPERATOR_DESC;

#endif /* DML_TARGET_VERSION >= 0x6300 */

#if DML_TARGET_VERSION >= 0x6400

typedef struct DML_RESAMPLE3_OPERATOR_DESC {
    const DML_TENSOR_DESC *InputTensor;
    const DML_TENSOR_DESC *OutputTensor;
    DML_INTERPOLATION_MODE InterpolationMode;
    DML_AXIS_DIRECTION RoundingDirection;
    UINT DimensionCount;
    const FLOAT *Scales;
    const FLOAT *InputPixelOffsets;
    const FLOAT *OutputPixelOffsets;
    BOOL Antialiased;
} DML_RESAMPLE3_OPERATOR_DESC;

/* FOLD and UNFOLD: patches of WindowSizes, Strides and Dilations, per dimension. */
typedef struct DML_FOLD_OPERATOR_DESC {
    const DML_TENSOR_DESC *InputTensor;
    const DML_TENSOR_DESC *OutputTensor;
    UINT DimensionCount;
    const UINT *WindowSizes;
    const UINT *Strides;
    const UINT *Dilations;
    const UINT *StartPadding;
    const UINT *EndPadding;
} DML_FOLD_OPERATOR_DESC;

typedef struct DML_UNFOLD_OPERATOR_DESC {
    const DML_TENSOR_DESC *InputTensor;
    const DML_TENSOR_DESC *OutputTensor;
    UINT DimensionCount;
    const UINT *WindowSizes;
    const UINT *Strides;
    const UINT *Dilations;
    const UINT *StartPadding;
    const UINT *EndPadding;
} DML_UNFOLD_OPERATOR_DESC;

#endif /* DML_TARGET_VERSION >= 0x6400 */

#endif /* DMLCL_DIRECTML_OPS_5_H */
