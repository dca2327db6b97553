/* SPDX-License-Identifier: MIT */
/*
 * dmlcl/directml_ops_3.h: the operator descriptions DirectML added at
 * feature levels 3.0 to 4.1. Part of dmlcl/directml.h; include that instead.
 */
#ifndef DMLCL_DIRECTML_OPS_3_H
#define DMLCL_DIRECTML_OPS_3_H

#ifndef DMLCL_DIRECTML_H
#error "include dmlcl/directml.h, not dmlcl/directml_ops_3.h"
#endif

#if DML_TARGET_VERSION >= 0x3000

typedef struct DML_ELEMENT_WISE_BIT_AND_OPERATOR_DESC {
    const DML_TENSOR_DESC *ATensor;
    const DML_TENSOR_DESC *BTensor;
    const DML_TENSOR_DESC *OutputTensor;
} DML_ELEMENT_WISE_BIT_AND_OPERATOR_DESC;

typedef struct DML_ELEMENT_WISE_BIT_OR_OPERATOR_DESC {
    const DML_TENSOR_DESC *ATensor;
    const DML_TENSOR_DESC *BTensor;
    const DML_TENSOR_DESC *OutputTensor;
} DML_ELEMENT_WISE_BIT_OR_OPERATOR_DESC;

typedef struct DML_ELEMENT_WISE_BIT_XOR_OPERATOR_DESC {
    const DML_TENSOR_DESC *ATensor;
    const DML_TENSOR_DESC *BTensor;
    const DML_TENSOR_DESC *OutputTensor;
} DML_ELEMENT_WISE_BIT_XOR_OPERATOR_DESC;

typedef struct DML_ELEMENT_WISE_BIT_NOT_OPERATOR_DESC {
    const DML_TENSOR_DESC *InputTensor;
    const DML_TENSOR_DESC *OutputTensor;
} DML_ELEMENT_WISE_BIT_NOT_OPERATOR_DESC;

typedef struct DML_ELEMENT_WISE_BIT_COUNT_OPERATOR_DESC {
    const DML_TENSOR_DESC *InputTensor;
    const DML_TENSOR_DESC *OutputTensor;
} DML_ELEMENT_WISE_BIT_COUNT_OPERATOR_DESC;

typedef struct DML_ELEMENT_WISE_LOGICAL_GREATER_THAN_OR_EQUAL_OPERATOR_DESC {
    const DML_TENSOR_DESC *ATensor;
    const DML_TENSOR_DESC *BTensor;
    const DML_TENSOR_DESC *OutputTensor;
} DML_ELEMENT_WISE_LOGICAL_GREATER_THAN_OR_EQUAL_OPERATOR_DESC;

typedef struct DML_ELEMENT_WISE_LOGICAL_LESS_THAN_OR_EQUAL_OPERATOR_DESC {
    const DML_TENSOR_DESC *ATensor;
    const DML_TENSOR_DESC *BTensor;
    const DML_TENSOR_DESC *OutputTensor;
} DML_ELEMENT_WISE_LOGICAL_LESS_THAN_OR_EQUAL_OPERATOR_DESC;

typedef struct DML_ACTIVATION_CELU_OPERATOR_DESC {
    const DML_TENSOR_DESC *InputTensor;
    const DML_TENSOR_DESC *OutputTensor;
    FLOAT Alpha;
} DML_ACTIVATION_CELU_OPERATOR_DESC;

typedef struct DML_ACTIVATION_RELU_GRAD_OPERATOR_DESC {
    const DML_TENSOR_DESC *InputTensor;
    const DML_TENSOR_DESC *InputGradientTensor;
    const DML_TENSOR_DESC *OutputGradientTensor;
} DML_ACTIVATION_RELU_GRAD_OPERATOR_DESC;

typedef struct DML_AVERAGE_POOLING_GRAD_OPERATOR_DESC {
    const DML_TENSOR_DESC *InputGradientTensor;
    const DML_TENSOR_DESC *OutputGradientTensor;
    UINT DimensionCount;
    const UINT *Strides;
    const UINT *WindowSize;
    const UINT *StartPadding;
    const UINT *EndPadding;
    BOOL IncludePadding;
} DML_AVERAGE_POOLING_GRAD_OPERATOR_DESC;

typedef struct DML_MAX_POOLING_GRAD_OPERATOR_DESC {
    const DML_TENSOR_DESC *InputTensor;
    const DML_TENSOR_DESC *InputGradientTensor;
    const DML_TENSOR_DESC *OutputGradientTensor;
    UINT DimensionCount;
    const UINT *Strides;
    const UINT *WindowSize;
    const UINT *StartPadding;
    const UINT *EndPadding;
    const UINT *Dilations;
} DML_MAX_POOLING_GRAD_OPERATOR_DESC;

typedef struct DML_RANDOM_GENERATOR_OPERATOR_DESC {
    const DML_TENSOR_DESC *InputStateTensor;
    const DML_TENSOR_DESC *OutputTensor;
    const DML_TENSOR_DESC *OutputStateTensor;
    DML_RANDOM_GENERATOR_TYPE Type;
} DML_RANDOM_GENERATOR_OPERATOR_DESC;

typedef struct DML_NONZERO_COORDINATES_OPERATOR_DESC {
    const DML_TENSOR_DESC *InputTensor;
    const DML_TENSOR_DESC *OutputCountTensor;
    const DML_TENSOR_DESC *OutputCoordinatesTensor;
} DML_NONZERO_COORDINATES_OPERATOR_DESC;

typedef struct DML_RESAMPLE_GRAD_OPERATOR_DESC {
    const DML_TENSOR_DESC *InputGradientTensor;
    const DML_TENSOR_DESC *OutputGradientTensor;
    DML_INTERPOLATION_MODE InterpolationMode;
    UINT DimensionCount;
    const FLOAT *Scales;
    const FLOAT *InputPixelOffsets;
    const FLOAT *OutputPixelOffsets;
} DML_RESAMPLE_GRAD_OPERATOR_DESC;

typedef struct DML_SLICE_GRAD_OPERATOR_DESC {
    const DML_TENSOR_DESC *InputGradientTensor;
    const DML_TENSOR_DESC *OutputGradientTensor;
    UINT DimensionCount;
    const UINT *InputWindowOffsets;
    const UINT *InputWindowSizes;
    const INT *InputWindowStrides;
} DML_SLICE_GRAD_OPERATOR_DESC;

typedef struct DML_ADAM_OPTIMIZER_OPERATOR_DESC {
    const DML_TENSOR_DESC *InputParametersTensor;
    const DML_TENSOR_DESC *InputFirstMomentTensor;
    const DML_TENSOR_DESC *InputSecondMomentTensor;
    const DML_TENSOR_DESC *GradientTensor;
    const DML_TENSOR_DESC *TrainingStepTensor;
    const DML_TENSOR_DESC *OutputParametersTensor;
    const DML_TENSOR_DESC *OutputFirstMomentTensor;
    const DML_TENSOR_DESC *OutputSecondMomentTensor;
    FLOAT LearningRate;
    FLOAT Beta1;
    FLOAT Beta2;
    FLOAT Epsilon;
} DML_ADAM_OPTIMIZER_OPERATOR_DESC;

typedef struct DML_ARGMIN_OPERATOR_DESC {
    const DML_TENSOR_DESC *InputTensor;
    const DML_TENSOR_DESC *OutputTensor;
    UINT AxisCount;
    const UINT *Axes;
    DML_AXIS_DIRECTION AxisDirection;
} DML_ARGMIN_OPERATOR_DESC;

typedef struct DML_ARGMAX_OPERATOR_DESC {
    const DML_TENSOR_DESC *InputTensor;
    const DML_TENSOR_DESC *OutputTensor;
    UINT AxisCount;
    const UINT *Axes;
    DML_AXIS_DIRECTION AxisDirection;
} DML_ARGMAX_OPERATOR_DESC;

typedef struct DML_ROI_ALIGN_OPERATOR_DESC {
    const DML_TENSOR_DESC *InputTensor;
    const DML_TENSOR_DESC *ROITensor;
    const DML_TENSOR_DESC *BatchIndicesTensor;
    const DML_TENSOR_DESC *OutputTensor;
    DML_REDUCE_FUNCTION ReductionFunction;
    DML_INTERPOLATION_MODE InterpolationMode;
    FLOAT SpatialScaleX;
    FLOAT SpatialScaleY;
    FLOAT OutOfBoundsInputValue;
    UINT MinimumSamplesPerOutput;
    UINT MaximumSamplesPerOutput;
} DML_ROI_ALIGN_OPERATOR_DESC;

typedef struct DML_GATHER_ND1_OPERATOR_DESC {
    const DML_TENSOR_DESC *InputTensor;
    const DML_TENSOR_DESC *IndicesTensor;
    const DML_TENSOR_DESC *OutputTensor;
    UINT InputDimensionCount;
    UINT IndicesDimensionCount;
    UINT BatchDimensionCount;
} DML_GATHER_ND1_OPERATOR_DESC;

#endif /* DML_TARGET_VERSION >= 0x3000 */

#if DML_TARGET_VERSION >= 0x3100

typedef struct DML_ELEMENT_WISE_ATAN_YX_OPERATOR_DESC {
    const DML_TENSOR_DESC *ATensor;
    const DML_TENSOR_DESC *BTensor;
    const DML_TENSOR_DESC *OutputTensor;
} DML_ELEMENT_WISE_ATAN_YX_OPERATOR_DESC;

typedef struct DML_ELEMENT_WISE_CLIP_GRAD_OPERATOR_DESC {
    const DML_TENSOR_DESC *InputTensor;
    const DML_TENSOR_DESC *InputGradientTensor;
    const DML_TENSOR_DESC *OutputGradientTensor;
    FLOAT Min;
    FLOAT Max;
} DML_ELEMENT_WISE_CLIP_GRAD_OPERATOR_DESC;

typedef struct DML_ELEMENT_WISE_DIFFERENCE_SQUARE_OPERATOR_DESC {
    const DML_TENSOR_DESC *ATensor;
    const DML_TENSOR_DESC *BTensor;
    const DML_TENSOR_DESC *OutputTensor;
} DML_ELEMENT_WISE_DIFFERENCE_SQUARE_OPERATOR_DESC;

typedef struct DML_LOCAL_RESPONSE_NORMALIZATION_GRAD_OPERATOR_DESC {
    const DML_TENSOR_DESC *InputTensor;
    const DML_TENSOR_DESC *InputGradientTensor;
    const DML_TENSOR_DESC *OutputGradientTensor;
    BOOL CrossChannel;
    UINT LocalSize;
    FLOAT Alpha;
    FLOAT Beta;
    FLOAT Bias;
} DML_LOCAL_RESPONSE_NORMALIZATION_GRAD_OPERATOR_DESC;

typedef struct DML_CUMULATIVE_PRODUCT_OPERATOR_DESC {
    const DML_TENSOR_DESC *InputTensor;
    const DML_TENSOR_DESC *OutputTensor;
    UINT Axis;
    DML_AXIS_DIRECTION AxisDirection;
    BOOL HasExclusiveProduct;
} DML_CUMULATIVE_PRODUCT_OPERATOR_DESC;

typedef struct DML_BATCH_NORMALIZATION_GRAD_OPERATOR_DESC {
    const DML_TENSOR_DESC *InputTensor;
    const DML_TENSOR_DESC *InputGradientTensor;
    const DML_TENSOR_DESC *MeanTensor;
    const DML_TENSOR_DESC *VarianceTensor;
    const DML_TENSOR_DESC *ScaleTensor;
    const DML_TENSOR_DESC *OutputGradientTensor;
    const DML_TENSOR_DESC *OutputScaleGradientTensor;
    const DML_TENSOR_DESC *OutputBiasGradientTensor;
    FLOAT Epsilon;
} DML_BATCH_NORMALIZATION_GRAD_OPERATOR_DESC;

#endif /* DML_TARGET_VERSION >= 0x3100 */

#if DML_TARGET_VERSION >= 0x4000

typedef struct DML_ELEMENT_WISE_QUANTIZED_LINEAR_ADD_OPERATOR_DESC {
    const DML_TENSOR_DESC *ATensor;
    const DML_TENSOR_DESC *AScaleTensor;
    const DML_TENSOR_DESC *AZeroPointTensor;
    const DML_TENSOR_DESC *BTensor;
    const DML_TENSOR_DESC *BScaleTensor;
    const DML_TENSOR_DESC *BZeroPointTensor;
    const DML_TENSOR_DESC *OutputScaleTensor;     /* an input */
    const DML_TENSOR_DESC *OutputZeroPointTensor; /* an input */
    const DML_TENSOR_DESC *OutputTensor;
} DML_ELEMENT_WISE_QUANTIZED_LINEAR_ADD_OPERATOR_DESC;

typedef struct DML_DYNAMIC_QUANTIZE_LINEAR_OPERATOR_DESC {
    const DML_TENSOR_DESC *InputTensor;
    const DML_TENSOR_DESC *OutputTensor;
    const DML_TENSOR_DESC *OutputScaleTensor;     /* an output */
    const DML_TENSOR_DESC *OutputZeroPointTensor; /* an output */
} DML_DYNAMIC_QUANTIZE_LINEAR_OPERATOR_DESC;

typedef struct DML_ROI_ALIGN1_OPERATOR_DESC {
    const DML_TENSOR_DESC *InputTensor;
    const DML_TENSOR_DESC *ROITensor;
    const DML_TENSOR_DESC *BatchIndicesTensor;
    const DML_TENSOR_DESC *OutputTensor;
    DML_REDUCE_FUNCTION ReductionFunction;
    DML_INTERPOLATION_MODE InterpolationMode;
    FLOAT SpatialScaleX;
    FLOAT SpatialScaleY;
    FLOAT InputPixelOffset;
    FLOAT OutputPixelOffset;
    FLOAT OutOfBoundsInputValue;
    UINT MinimumSamplesPerOutput;
    UINT MaximumSamplesPerOutput;
    BOOL AlignRegionsToCorners;
} DML_ROI_ALIGN1_OPERATOR_DESC;

#endif /* DML_TARGET_VERSION >= 0x4000 */

#if DML_TARGET_VERSION >= 0x4100

typedef struct DML_ROI_ALIGN_GRAD_OPERATOR_DESC {
    const DML_TENSOR_DESC *InputTensor;
    const DML_TENSOR_DESC *InputGradientTensor;
    const DML_TENSOR_DESC *ROITensor;
    const DML_TENSOR_DESC *BatchIndicesTensor;
    const DML_TENSOR_DESC *OutputGradientTensor;
    const DML_TENSOR_DESC *OutputROIGradientTensor;
    DML_REDUCE_FUNCTION ReductionFunction;
    DML_INTERPOLATION_MODE InterpolationMode;
    FLOAT SpatialScaleX;
    FLOAT SpatialScaleY;
    FLOAT InputPixelOffset;
    FLOAT OutputPixelOffset;
    UINT MinimumSamplesPerOutput;
    UINT MaximumSamplesPerOutput;
    BOOL AlignRegionsToCorners;
} DML_ROI_ALIGN_GRAD_OPERATOR_DESC;

typedef struct DML_BATCH_NORMALIZATION_TRAINING_OPERATOR_DESC {
    const DML_TENSOR_DESC *InputTensor;
    const DML_TENSOR_DESC *ScaleTensor;
    const DML_TENSOR_DESC *BiasTensor;
    const DML_TENSOR_DESC *FusedAddTensor;
    const DML_TENSOR_DESC *OutputTensor;
    const DML_TENSOR_DESC *OutputMeanTensor;
    const DML_TENSOR_DESC *OutputVarianceTensor;
    FLOAT Epsilon;
    const DML_OPERATOR_DESC *FusedActivation;
} DML_BATCH_NORMALIZATION_TRAINING_OPERATOR_DESC;

typedef struct DML_BATCH_NORMALIZATION_TRAINING_GRAD_OPERATOR_DESC {
    const DML_TENSOR_DESC *InputTensor;
    const DML_TENSOR_DESC *InputGradientTensor;
    const DML_TENSOR_DESC *MeanTensor;
    const DML_TENSOR_DESC *VarianceTensor;
    const DML_TENSOR_DESC *ScaleTensor;
    const DML_TENSOR_DESC *OutputGradientTensor;
    const DML_TENSOR_DESC *OutputScaleGradientTensor;
    const DML_TENSOR_DESC *OutputBiasGradientTensor;
    FLOAT Epsilon;
} DML_BATCH_NORMALIZATION_TRAINING_GRAD_OPERATOR_DESC;

#endif /* DML_TARGET_VERSION >= 0x4100 */

#endif /* DMLCL_DIRECTML_OPS_3_H */
