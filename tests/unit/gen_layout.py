#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Writes tests/unit/layout.c: the x86-64 layout of every DirectML struct.

The member lists below are transcribed from DirectML 1.15's DirectML.h
(names, order, types), independently of dmlcl's headers; the offsets and
sizes are computed here from the LP64 sizes of those types (pointers and
UINT64 8 bytes, UINT/INT/FLOAT/BOOL and enums 4, natural alignment), never
read from the structs under test. Every enum's values are numbered here from
DirectML's declaration order. Run it after changing the list:

    python3 tests/unit/gen_layout.py > tests/unit/layout.c
"""
import sys

# Abbreviations used in the member lists.
ABBREV = {
    "T": "const DML_TENSOR_DESC *",
    "S": "const DML_SCALE_BIAS *",
    "O": "const DML_OPERATOR_DESC *",
    "U*": "const UINT *",
    "I*": "const INT *",
    "F*": "const FLOAT *",
}
# (size, alignment) of each non-pointer member type on x86-64.
SCALAR = {"UINT": (4, 4), "INT": (4, 4), "FLOAT": (4, 4), "float": (4, 4), "BOOL": (4, 4),
          "UINT64": (8, 8), "SIZE_T": (8, 8), "DML_SCALAR_UNION": (8, 8),
          "DML_SIZE_2D": (8, 4), "D3D12_CPU_DESCRIPTOR_HANDLE": (8, 8),
          "D3D12_GPU_DESCRIPTOR_HANDLE": (8, 8)}

# "NAME" starts a struct; each following line is "TYPE Member". Enum-typed
# members are written with their enum name (4 bytes).
STRUCTS = """
DML_BUFFER_TENSOR_DESC
DML_TENSOR_DATA_TYPE DataType
DML_TENSOR_FLAGS Flags
UINT DimensionCount
U* Sizes
U* Strides
UINT64 TotalTensorSizeInBytes
UINT GuaranteedBaseOffsetAlignment

DML_TENSOR_DESC
DML_TENSOR_TYPE Type
const void * Desc

DML_SCALE_BIAS
FLOAT Scale
FLOAT Bias

DML_SIZE_2D
UINT Width
UINT Height

DML_OPERATOR_DESC
DML_OPERATOR_TYPE Type
const void * Desc

@UNARY_SB DML_ELEMENT_WISE_IDENTITY DML_ELEMENT_WISE_ABS DML_ELEMENT_WISE_ACOS DML_ELEMENT_WISE_ASIN DML_ELEMENT_WISE_ATAN DML_ELEMENT_WISE_CEIL DML_ELEMENT_WISE_COS DML_ELEMENT_WISE_EXP DML_ELEMENT_WISE_FLOOR DML_ELEMENT_WISE_LOG DML_ELEMENT_WISE_RECIP DML_ELEMENT_WISE_SIN DML_ELEMENT_WISE_SQRT DML_ELEMENT_WISE_TAN DML_ELEMENT_WISE_ERF DML_ELEMENT_WISE_SINH DML_ELEMENT_WISE_COSH DML_ELEMENT_WISE_TANH DML_ELEMENT_WISE_ASINH DML_ELEMENT_WISE_ACOSH DML_ELEMENT_WISE_ATANH
@BINARY DML_ELEMENT_WISE_ADD DML_ELEMENT_WISE_DIVIDE DML_ELEMENT_WISE_LOGICAL_AND DML_ELEMENT_WISE_LOGICAL_EQUALS DML_ELEMENT_WISE_LOGICAL_GREATER_THAN DML_ELEMENT_WISE_LOGICAL_LESS_THAN DML_ELEMENT_WISE_LOGICAL_OR DML_ELEMENT_WISE_LOGICAL_XOR DML_ELEMENT_WISE_MAX DML_ELEMENT_WISE_MEAN DML_ELEMENT_WISE_MIN DML_ELEMENT_WISE_MULTIPLY DML_ELEMENT_WISE_SUBTRACT DML_ELEMENT_WISE_BIT_SHIFT_LEFT DML_ELEMENT_WISE_BIT_SHIFT_RIGHT DML_ELEMENT_WISE_MODULUS_TRUNCATE DML_ELEMENT_WISE_MODULUS_FLOOR DML_ELEMENT_WISE_BIT_AND DML_ELEMENT_WISE_BIT_OR DML_ELEMENT_WISE_BIT_XOR DML_ELEMENT_WISE_LOGICAL_GREATER_THAN_OR_EQUAL DML_ELEMENT_WISE_LOGICAL_LESS_THAN_OR_EQUAL DML_ELEMENT_WISE_ATAN_YX DML_ELEMENT_WISE_DIFFERENCE_SQUARE
@UNARY DML_ELEMENT_WISE_LOGICAL_NOT DML_ACTIVATION_HARDMAX DML_ACTIVATION_IDENTITY DML_ACTIVATION_LOG_SOFTMAX DML_ACTIVATION_RELU DML_ACTIVATION_SIGMOID DML_ACTIVATION_SOFTMAX DML_ACTIVATION_SOFTSIGN DML_ACTIVATION_TANH DML_CAST DML_ELEMENT_WISE_SIGN DML_ELEMENT_WISE_IS_NAN DML_ELEMENT_WISE_BIT_NOT DML_ELEMENT_WISE_BIT_COUNT DML_ELEMENT_WISE_NEGATE DML_ACTIVATION_GELU
@ALPHA DML_ACTIVATION_ELU DML_ACTIVATION_LEAKY_RELU DML_ACTIVATION_THRESHOLDED_RELU DML_ACTIVATION_CELU
@ALPHA_BETA DML_ACTIVATION_HARD_SIGMOID DML_ACTIVATION_LINEAR DML_ACTIVATION_PARAMETRIC_SOFTPLUS DML_ACTIVATION_SCALED_TANH DML_ACTIVATION_HARD_SWISH
@AXES DML_ACTIVATION_SOFTMAX1 DML_ACTIVATION_LOG_SOFTMAX1 DML_ACTIVATION_HARDMAX1

DML_ELEMENT_WISE_ADD1_OPERATOR_DESC
T ATensor
T BTensor
T OutputTensor
O FusedActivation

DML_ELEMENT_WISE_CLIP_OPERATOR_DESC
T InputTensor
T OutputTensor
S ScaleBias
FLOAT Min
FLOAT Max

DML_ELEMENT_WISE_POW_OPERATOR_DESC
T InputTensor
T ExponentTensor
T OutputTensor
S ScaleBias

DML_ELEMENT_WISE_CONSTANT_POW_OPERATOR_DESC
T InputTensor
T OutputTensor
S ScaleBias
FLOAT Exponent

DML_ELEMENT_WISE_THRESHOLD_OPERATOR_DESC
T InputTensor
T OutputTensor
S ScaleBias
FLOAT Min

DML_ELEMENT_WISE_QUANTIZE_LINEAR_OPERATOR_DESC
T InputTensor
T ScaleTensor
T ZeroPointTensor
T OutputTensor

DML_ELEMENT_WISE_DEQUANTIZE_LINEAR_OPERATOR_DESC
T InputTensor
T ScaleTensor
T ZeroPointTensor
T OutputTensor

DML_ACTIVATION_PARAMETERIZED_RELU_OPERATOR_DESC
T InputTensor
T SlopeTensor
T OutputTensor

DML_ACTIVATION_SCALED_ELU_OPERATOR_DESC
T InputTensor
T OutputTensor
FLOAT Alpha
FLOAT Gamma

DML_ACTIVATION_SOFTPLUS_OPERATOR_DESC
T InputTensor
T OutputTensor
FLOAT Steepness

DML_CONVOLUTION_OPERATOR_DESC
T InputTensor
T FilterTensor
T BiasTensor
T OutputTensor
DML_CONVOLUTION_MODE Mode
DML_CONVOLUTION_DIRECTION Direction
UINT DimensionCount
U* Strides
U* Dilations
U* StartPadding
U* EndPadding
U* OutputPadding
UINT GroupCount
O FusedActivation

DML_GEMM_OPERATOR_DESC
T ATensor
T BTensor
T CTensor
T OutputTensor
DML_MATRIX_TRANSFORM TransA
DML_MATRIX_TRANSFORM TransB
FLOAT Alpha
FLOAT Beta
O FusedActivation

DML_REDUCE_OPERATOR_DESC
DML_REDUCE_FUNCTION Function
T InputTensor
T OutputTensor
UINT AxisCount
U* Axes

DML_AVERAGE_POOLING_OPERATOR_DESC
T InputTensor
T OutputTensor
UINT DimensionCount
U* Strides
U* WindowSize
U* StartPadding
U* EndPadding
BOOL IncludePadding

DML_LP_POOLING_OPERATOR_DESC
T InputTensor
T OutputTensor
UINT DimensionCount
U* Strides
U* WindowSize
U* StartPadding
U* EndPadding
UINT P

DML_MAX_POOLING_OPERATOR_DESC
T InputTensor
T OutputTensor
UINT DimensionCount
U* Strides
U* WindowSize
U* StartPadding
U* EndPadding

DML_ROI_POOLING_OPERATOR_DESC
T InputTensor
T ROITensor
T OutputTensor
FLOAT SpatialScale
DML_SIZE_2D PooledSize

DML_SLICE_OPERATOR_DESC
T InputTensor
T OutputTensor
UINT DimensionCount
U* Offsets
U* Sizes
U* Strides

DML_SPLIT_OPERATOR_DESC
T InputTensor
UINT OutputCount
T OutputTensors
UINT Axis

DML_JOIN_OPERATOR_DESC
UINT InputCount
T InputTensors
T OutputTensor
UINT Axis

DML_PADDING_OPERATOR_DESC
T InputTensor
T OutputTensor
DML_PADDING_MODE PaddingMode
FLOAT PaddingValue
UINT DimensionCount
U* StartPadding
U* EndPadding

DML_VALUE_SCALE_2D_OPERATOR_DESC
T InputTensor
T OutputTensor
FLOAT Scale
UINT ChannelCount
F* Bias

DML_UPSAMPLE_2D_OPERATOR_DESC
T InputTensor
T OutputTensor
DML_SIZE_2D ScaleSize
DML_INTERPOLATION_MODE InterpolationMode

DML_GATHER_OPERATOR_DESC
T InputTensor
T IndicesTensor
T OutputTensor
UINT Axis
UINT IndexDimensions

DML_SPACE_TO_DEPTH_OPERATOR_DESC
T InputTensor
T OutputTensor
UINT BlockSize

DML_DEPTH_TO_SPACE_OPERATOR_DESC
T InputTensor
T OutputTensor
UINT BlockSize

DML_TILE_OPERATOR_DESC
T InputTensor
T OutputTensor
UINT RepeatsCount
U* Repeats

DML_TOP_K_OPERATOR_DESC
T InputTensor
T OutputValueTensor
T OutputIndexTensor
UINT Axis
UINT K

DML_BATCH_NORMALIZATION_OPERATOR_DESC
T InputTensor
T MeanTensor
T VarianceTensor
T ScaleTensor
T BiasTensor
T OutputTensor
BOOL Spatial
FLOAT Epsilon
O FusedActivation

DML_MEAN_VARIANCE_NORMALIZATION_OPERATOR_DESC
T InputTensor
T ScaleTensor
T BiasTensor
T OutputTensor
BOOL CrossChannel
BOOL NormalizeVariance
FLOAT Epsilon
O FusedActivation

DML_LOCAL_RESPONSE_NORMALIZATION_OPERATOR_DESC
T InputTensor
T OutputTensor
BOOL CrossChannel
UINT LocalSize
FLOAT Alpha
FLOAT Beta
FLOAT Bias

DML_LP_NORMALIZATION_OPERATOR_DESC
T InputTensor
T OutputTensor
UINT Axis
FLOAT Epsilon
UINT P

DML_RNN_OPERATOR_DESC
T InputTensor
T WeightTensor
T RecurrenceTensor
T BiasTensor
T HiddenInitTensor
T SequenceLengthsTensor
T OutputSequenceTensor
T OutputSingleTensor
UINT ActivationDescCount
O ActivationDescs
DML_RECURRENT_NETWORK_DIRECTION Direction

DML_LSTM_OPERATOR_DESC
T InputTensor
T WeightTensor
T RecurrenceTensor
T BiasTensor
T HiddenInitTensor
T CellMemInitTensor
T SequenceLengthsTensor
T PeepholeTensor
T OutputSequenceTensor
T OutputSingleTensor
T OutputCellSingleTensor
UINT ActivationDescCount
O ActivationDescs
DML_RECURRENT_NETWORK_DIRECTION Direction
float ClipThreshold
BOOL UseClipThreshold
BOOL CoupleInputForget

DML_GRU_OPERATOR_DESC
T InputTensor
T WeightTensor
T RecurrenceTensor
T BiasTensor
T HiddenInitTensor
T SequenceLengthsTensor
T OutputSequenceTensor
T OutputSingleTensor
UINT ActivationDescCount
O ActivationDescs
DML_RECURRENT_NETWORK_DIRECTION Direction
BOOL LinearBeforeReset

DML_ELEMENT_WISE_IF_OPERATOR_DESC
T ConditionTensor
T ATensor
T BTensor
T OutputTensor

DML_ACTIVATION_SHRINK_OPERATOR_DESC
T InputTensor
T OutputTensor
FLOAT Bias
FLOAT Threshold

DML_MAX_POOLING1_OPERATOR_DESC
T InputTensor
T OutputTensor
T OutputIndicesTensor
UINT DimensionCount
U* Strides
U* WindowSize
U* StartPadding
U* EndPadding

DML_MAX_UNPOOLING_OPERATOR_DESC
T InputTensor
T IndicesTensor
T OutputTensor

DML_DIAGONAL_MATRIX_OPERATOR_DESC
T OutputTensor
INT Offset
FLOAT Value

DML_SCATTER_OPERATOR_DESC
T InputTensor
T IndicesTensor
T UpdatesTensor
T OutputTensor
UINT Axis

DML_SCATTER_ELEMENTS_OPERATOR_DESC
T InputTensor
T IndicesTensor
T UpdatesTensor
T OutputTensor
UINT Axis

DML_ONE_HOT_OPERATOR_DESC
T IndicesTensor
T ValuesTensor
T OutputTensor
UINT Axis

DML_RESAMPLE_OPERATOR_DESC
T InputTensor
T OutputTensor
DML_INTERPOLATION_MODE InterpolationMode
UINT ScaleCount
F* Scales

DML_ELEMENT_WISE_ROUND_OPERATOR_DESC
T InputTensor
T OutputTensor
DML_ROUNDING_MODE RoundingMode

DML_ELEMENT_WISE_IS_INFINITY_OPERATOR_DESC
T InputTensor
T OutputTensor
DML_IS_INFINITY_MODE InfinityMode

DML_FILL_VALUE_CONSTANT_OPERATOR_DESC
T OutputTensor
DML_TENSOR_DATA_TYPE ValueDataType
DML_SCALAR_UNION Value

DML_FILL_VALUE_SEQUENCE_OPERATOR_DESC
T OutputTensor
DML_TENSOR_DATA_TYPE ValueDataType
DML_SCALAR_UNION ValueStart
DML_SCALAR_UNION ValueDelta

DML_CUMULATIVE_SUMMATION_OPERATOR_DESC
T InputTensor
T OutputTensor
UINT Axis
DML_AXIS_DIRECTION AxisDirection
BOOL HasExclusiveSum

DML_REVERSE_SUBSEQUENCES_OPERATOR_DESC
T InputTensor
T SequenceLengthsTensor
T OutputTensor
UINT Axis

DML_GATHER_ELEMENTS_OPERATOR_DESC
T InputTensor
T IndicesTensor
T OutputTensor
UINT Axis

DML_GATHER_ND_OPERATOR_DESC
T InputTensor
T IndicesTensor
T OutputTensor
UINT InputDimensionCount
UINT IndicesDimensionCount

DML_SCATTER_ND_OPERATOR_DESC
T InputTensor
T IndicesTensor
T UpdatesTensor
T OutputTensor
UINT InputDimensionCount
UINT IndicesDimensionCount

DML_MAX_POOLING2_OPERATOR_DESC
T InputTensor
T OutputTensor
T OutputIndicesTensor
UINT DimensionCount
U* Strides
U* WindowSize
U* StartPadding
U* EndPadding
U* Dilations

DML_SLICE1_OPERATOR_DESC
T InputTensor
T OutputTensor
UINT DimensionCount
U* InputWindowOffsets
U* InputWindowSizes
I* InputWindowStrides

DML_TOP_K1_OPERATOR_DESC
T InputTensor
T OutputValueTensor
T OutputIndexTensor
UINT Axis
UINT K
DML_AXIS_DIRECTION AxisDirection

DML_DEPTH_TO_SPACE1_OPERATOR_DESC
T InputTensor
T OutputTensor
UINT BlockSize
DML_DEPTH_SPACE_ORDER Order

DML_SPACE_TO_DEPTH1_OPERATOR_DESC
T InputTensor
T OutputTensor
UINT BlockSize
DML_DEPTH_SPACE_ORDER Order

DML_MEAN_VARIANCE_NORMALIZATION1_OPERATOR_DESC
T InputTensor
T ScaleTensor
T BiasTensor
T OutputTensor
UINT AxisCount
U* Axes
BOOL NormalizeVariance
FLOAT Epsilon
O FusedActivation

DML_RESAMPLE1_OPERATOR_DESC
T InputTensor
T OutputTensor
DML_INTERPOLATION_MODE InterpolationMode
UINT DimensionCount
F* Scales
F* InputPixelOffsets
F* OutputPixelOffsets

DML_MATRIX_MULTIPLY_INTEGER_OPERATOR_DESC
T ATensor
T AZeroPointTensor
T BTensor
T BZeroPointTensor
T OutputTensor

DML_QUANTIZED_LINEAR_MATRIX_MULTIPLY_OPERATOR_DESC
T ATensor
T AScaleTensor
T AZeroPointTensor
T BTensor
T BScaleTensor
T BZeroPointTensor
T OutputScaleTensor
T OutputZeroPointTensor
T OutputTensor

DML_CONVOLUTION_INTEGER_OPERATOR_DESC
T InputTensor
T InputZeroPointTensor
T FilterTensor
T FilterZeroPointTensor
T OutputTensor
UINT DimensionCount
U* Strides
U* Dilations
U* StartPadding
U* EndPadding
UINT GroupCount

DML_QUANTIZED_LINEAR_CONVOLUTION_OPERATOR_DESC
T InputTensor
T InputScaleTensor
T InputZeroPointTensor
T FilterTensor
T FilterScaleTensor
T FilterZeroPointTensor
T BiasTensor
T OutputScaleTensor
T OutputZeroPointTensor
T OutputTensor
UINT DimensionCount
U* Strides
U* Dilations
U* StartPadding
U* EndPadding
UINT GroupCount

DML_ACTIVATION_RELU_GRAD_OPERATOR_DESC
T InputTensor
T InputGradientTensor
T OutputGradientTensor

DML_AVERAGE_POOLING_GRAD_OPERATOR_DESC
T InputGradientTensor
T OutputGradientTensor
UINT DimensionCount
U* Strides
U* WindowSize
U* StartPadding
U* EndPadding
BOOL IncludePadding

DML_MAX_POOLING_GRAD_OPERATOR_DESC
T InputTensor
T InputGradientTensor
T OutputGradientTensor
UINT DimensionCount
U* Strides
U* WindowSize
U* StartPadding
U* EndPadding
U* Dilations

DML_RANDOM_GENERATOR_OPERATOR_DESC
T InputStateTensor
T OutputTensor
T OutputStateTensor
DML_RANDOM_GENERATOR_TYPE Type

DML_NONZERO_COORDINATES_OPERATOR_DESC
T InputTensor
T OutputCountTensor
T OutputCoordinatesTensor

DML_RESAMPLE_GRAD_OPERATOR_DESC
T InputGradientTensor
T OutputGradientTensor
DML_INTERPOLATION_MODE InterpolationMode
UINT DimensionCount
F* Scales
F* InputPixelOffsets
F* OutputPixelOffsets

DML_SLICE_GRAD_OPERATOR_DESC
T InputGradientTensor
T OutputGradientTensor
UINT DimensionCount
U* InputWindowOffsets
U* InputWindowSizes
I* InputWindowStrides

DML_ADAM_OPTIMIZER_OPERATOR_DESC
T InputParametersTensor
T InputFirstMomentTensor
T InputSecondMomentTensor
T GradientTensor
T TrainingStepTensor
T OutputParametersTensor
T OutputFirstMomentTensor
T OutputSecondMomentTensor
FLOAT LearningRate
FLOAT Beta1
FLOAT Beta2
FLOAT Epsilon

DML_ARGMIN_OPERATOR_DESC
T InputTensor
T OutputTensor
UINT AxisCount
U* Axes
DML_AXIS_DIRECTION AxisDirection

DML_ARGMAX_OPERATOR_DESC
T InputTensor
T OutputTensor
UINT AxisCount
U* Axes
DML_AXIS_DIRECTION AxisDirection

DML_ROI_ALIGN_OPERATOR_DESC
T InputTensor
T ROITensor
T BatchIndicesTensor
T OutputTensor
DML_REDUCE_FUNCTION ReductionFunction
DML_INTERPOLATION_MODE InterpolationMode
FLOAT SpatialScaleX
FLOAT SpatialScaleY
FLOAT OutOfBoundsInputValue
UINT MinimumSamplesPerOutput
UINT MaximumSamplesPerOutput

DML_GATHER_ND1_OPERATOR_DESC
T InputTensor
T IndicesTensor
T OutputTensor
UINT InputDimensionCount
UINT IndicesDimensionCount
UINT BatchDimensionCount

DML_ELEMENT_WISE_CLIP_GRAD_OPERATOR_DESC
T InputTensor
T InputGradientTensor
T OutputGradientTensor
FLOAT Min
FLOAT Max

DML_LOCAL_RESPONSE_NORMALIZATION_GRAD_OPERATOR_DESC
T InputTensor
T InputGradientTensor
T OutputGradientTensor
BOOL CrossChannel
UINT LocalSize
FLOAT Alpha
FLOAT Beta
FLOAT Bias

DML_CUMULATIVE_PRODUCT_OPERATOR_DESC
T InputTensor
T OutputTensor
UINT Axis
DML_AXIS_DIRECTION AxisDirection
BOOL HasExclusiveProduct

DML_BATCH_NORMALIZATION_GRAD_OPERATOR_DESC
T InputTensor
T InputGradientTensor
T MeanTensor
T VarianceTensor
T ScaleTensor
T OutputGradientTensor
T OutputScaleGradientTensor
T OutputBiasGradientTensor
FLOAT Epsilon

DML_ELEMENT_WISE_QUANTIZED_LINEAR_ADD_OPERATOR_DESC
T ATensor
T AScaleTensor
T AZeroPointTensor
T BTensor
T BScaleTensor
T BZeroPointTensor
T OutputScaleTensor
T OutputZeroPointTensor
T OutputTensor

DML_DYNAMIC_QUANTIZE_LINEAR_OPERATOR_DESC
T InputTensor
T OutputTensor
T OutputScaleTensor
T OutputZeroPointTensor

DML_ROI_ALIGN1_OPERATOR_DESC
T InputTensor
T ROITensor
T BatchIndicesTensor
T OutputTensor
DML_REDUCE_FUNCTION ReductionFunction
DML_INTERPOLATION_MODE InterpolationMode
FLOAT SpatialScaleX
FLOAT SpatialScaleY
FLOAT InputPixelOffset
FLOAT OutputPixelOffset
FLOAT OutOfBoundsInputValue
UINT MinimumSamplesPerOutput
UINT MaximumSamplesPerOutput
BOOL AlignRegionsToCorners

DML_ROI_ALIGN_GRAD_OPERATOR_DESC
T InputTensor
T InputGradientTensor
T ROITensor
T BatchIndicesTensor
T OutputGradientTensor
T OutputROIGradientTensor
DML_REDUCE_FUNCTION ReductionFunction
DML_INTERPOLATION_MODE InterpolationMode
FLOAT SpatialScaleX
FLOAT SpatialScaleY
FLOAT InputPixelOffset
FLOAT OutputPixelOffset
UINT MinimumSamplesPerOutput
UINT MaximumSamplesPerOutput
BOOL AlignRegionsToCorners

DML_BATCH_NORMALIZATION_TRAINING_OPERATOR_DESC
T InputTensor
T ScaleTensor
T BiasTensor
T FusedAddTensor
T OutputTensor
T OutputMeanTensor
T OutputVarianceTensor
FLOAT Epsilon
O FusedActivation

DML_BATCH_NORMALIZATION_TRAINING_GRAD_OPERATOR_DESC
T InputTensor
T InputGradientTensor
T MeanTensor
T VarianceTensor
T ScaleTensor
T OutputGradientTensor
T OutputScaleGradientTensor
T OutputBiasGradientTensor
FLOAT Epsilon

DML_ELEMENT_WISE_CLIP1_OPERATOR_DESC
T InputTensor
T OutputTensor
S ScaleBias
DML_TENSOR_DATA_TYPE MinMaxDataType
DML_SCALAR_UNION Min
DML_SCALAR_UNION Max

DML_ELEMENT_WISE_CLIP_GRAD1_OPERATOR_DESC
T InputTensor
T InputGradientTensor
T OutputGradientTensor
DML_TENSOR_DATA_TYPE MinMaxDataType
DML_SCALAR_UNION Min
DML_SCALAR_UNION Max

DML_PADDING1_OPERATOR_DESC
T InputTensor
T OutputTensor
DML_PADDING_MODE PaddingMode
DML_TENSOR_DATA_TYPE PaddingValueDataType
DML_SCALAR_UNION PaddingValue
UINT DimensionCount
U* StartPadding
U* EndPadding

DML_RESAMPLE2_OPERATOR_DESC
T InputTensor
T OutputTensor
DML_INTERPOLATION_MODE InterpolationMode
DML_AXIS_DIRECTION RoundingDirection
UINT DimensionCount
F* Scales
F* InputPixelOffsets
F* OutputPixelOffsets

DML_RESAMPLE_GRAD1_OPERATOR_DESC
T InputGradientTensor
T OutputGradientTensor
DML_INTERPOLATION_MODE InterpolationMode
DML_AXIS_DIRECTION RoundingDirection
UINT DimensionCount
F* Scales
F* InputPixelOffsets
F* OutputPixelOffsets

DML_DIAGONAL_MATRIX1_OPERATOR_DESC
T InputTensor
T OutputTensor
DML_TENSOR_DATA_TYPE ValueDataType
DML_SCALAR_UNION Value
INT DiagonalFillBegin
INT DiagonalFillEnd

DML_MULTIHEAD_ATTENTION_OPERATOR_DESC
T QueryTensor
T KeyTensor
T ValueTensor
T StackedQueryKeyTensor
T StackedKeyValueTensor
T StackedQueryKeyValueTensor
T BiasTensor
T MaskTensor
T RelativePositionBiasTensor
T PastKeyTensor
T PastValueTensor
T OutputTensor
T OutputPresentKeyTensor
T OutputPresentValueTensor
FLOAT Scale
FLOAT MaskFilterValue
UINT HeadCount
DML_MULTIHEAD_ATTENTION_MASK_TYPE MaskType

DML_LP_POOLING1_OPERATOR_DESC
T InputTensor
T OutputTensor
UINT DimensionCount
U* Strides
U* WindowSize
U* StartPadding
U* EndPadding
U* Dilations
UINT P

DML_AVERAGE_POOLING1_OPERATOR_DESC
T InputTensor
T OutputTensor
UINT DimensionCount
U* Strides
U* WindowSize
U* StartPadding
U* EndPadding
U* Dilations
BOOL IncludePadding

DML_ACTIVATION_SWISH_OPERATOR_DESC
T InputTensor
T OutputTensor
FLOAT SigmoidInputScale

DML_QUANTIZED_LINEAR_AVERAGE_POOLING_OPERATOR_DESC
T InputTensor
T InputScaleTensor
T InputZeroPointTensor
T OutputScaleTensor
T OutputZeroPointTensor
T OutputTensor
UINT DimensionCount
U* Strides
U* WindowSize
U* StartPadding
U* EndPadding
U* Dilations
BOOL IncludePadding

DML_MATRIX_MULTIPLY_INTEGER_TO_FLOAT_OPERATOR_DESC
T ATensor
T AScaleTensor
T AZeroPointTensor
T BTensor
T BScaleTensor
T BZeroPointTensor
T BiasTensor
T OutputTensor

DML_MEAN_VARIANCE_NORMALIZATION2_OPERATOR_DESC
T InputTensor
T ScaleTensor
T BiasTensor
T OutputTensor
UINT AxisCount
U* Axes
BOOL UseMean
BOOL UseVariance
FLOAT Epsilon
O FusedActivation

DML_MULTIHEAD_ATTENTION1_OPERATOR_DESC
T QueryTensor
T KeyTensor
T ValueTensor
T StackedQueryKeyTensor
T StackedKeyValueTensor
T StackedQueryKeyValueTensor
T BiasTensor
T MaskTensor
T RelativePositionBiasTensor
T PastKeyTensor
T PastValueTensor
T PastSequenceLengthsTensor
T OutputTensor
T OutputPresentKeyTensor
T OutputPresentValueTensor
FLOAT Scale
FLOAT MaskFilterValue
UINT QueryHeadCount
UINT KeyValueHeadCount
DML_MULTIHEAD_ATTENTION_MASK_TYPE MaskType

DML_QUANTIZE_OPERATOR_DESC
T InputTensor
DML_QUANTIZATION_TYPE QuantizationType
UINT QuantizationTensorCount
T QuantizationTensors
T OutputTensor

DML_DEQUANTIZE_OPERATOR_DESC
T InputTensor
DML_QUANTIZATION_TYPE QuantizationType
UINT QuantizationTensorCount
T QuantizationTensors
T OutputTensor

DML_RESAMPLE3_OPERATOR_DESC
T InputTensor
T OutputTensor
DML_INTERPOLATION_MODE InterpolationMode
DML_AXIS_DIRECTION RoundingDirection
UINT DimensionCount
F* Scales
F* InputPixelOffsets
F* OutputPixelOffsets
BOOL Antialiased

DML_FOLD_OPERATOR_DESC
T InputTensor
T OutputTensor
UINT DimensionCount
U* WindowSizes
U* Strides
U* Dilations
U* StartPadding
U* EndPadding

DML_UNFOLD_OPERATOR_DESC
T InputTensor
T OutputTensor
UINT DimensionCount
U* WindowSizes
U* Strides
U* Dilations
U* StartPadding
U* EndPadding

DML_FEATURE_QUERY_TENSOR_DATA_TYPE_SUPPORT
DML_TENSOR_DATA_TYPE DataType

DML_FEATURE_DATA_TENSOR_DATA_TYPE_SUPPORT
BOOL IsSupported

DML_FEATURE_QUERY_FEATURE_LEVELS
UINT RequestedFeatureLevelCount
const DML_FEATURE_LEVEL * RequestedFeatureLevels

DML_FEATURE_DATA_FEATURE_LEVELS
DML_FEATURE_LEVEL MaxSupportedFeatureLevel

D3D12_CPU_DESCRIPTOR_HANDLE
SIZE_T ptr

D3D12_GPU_DESCRIPTOR_HANDLE
UINT64 ptr

DML_BINDING_TABLE_DESC
IDMLDispatchable * Dispatchable
D3D12_CPU_DESCRIPTOR_HANDLE CPUDescriptorHandle
D3D12_GPU_DESCRIPTOR_HANDLE GPUDescriptorHandle
UINT SizeInDescriptors

DML_BINDING_PROPERTIES
UINT RequiredDescriptorCount
UINT64 TemporaryResourceSize
UINT64 PersistentResourceSize

DML_BINDING_DESC
DML_BINDING_TYPE Type
const void * Desc

DML_BUFFER_BINDING
ID3D12Resource * Buffer
UINT64 Offset
UINT64 SizeInBytes

DML_BUFFER_ARRAY_BINDING
UINT BindingCount
const DML_BUFFER_BINDING * Bindings

DML_GRAPH_EDGE_DESC
DML_GRAPH_EDGE_TYPE Type
const void * Desc

DML_INPUT_GRAPH_EDGE_DESC
UINT GraphInputIndex
UINT ToNodeIndex
UINT ToNodeInputIndex
const char * Name

DML_OUTPUT_GRAPH_EDGE_DESC
UINT FromNodeIndex
UINT FromNodeOutputIndex
UINT GraphOutputIndex
const char * Name

DML_INTERMEDIATE_GRAPH_EDGE_DESC
UINT FromNodeIndex
UINT FromNodeOutputIndex
UINT ToNodeIndex
UINT ToNodeInputIndex
const char * Name

DML_GRAPH_NODE_DESC
DML_GRAPH_NODE_TYPE Type
const void * Desc

DML_OPERATOR_GRAPH_NODE_DESC
IDMLOperator * Operator
const char * Name

DML_CONSTANT_DATA_GRAPH_NODE_DESC
const void * Data
SIZE_T DataSize
const char * Name

DML_GRAPH_DESC
UINT InputCount
UINT OutputCount
UINT NodeCount
const DML_GRAPH_NODE_DESC * Nodes
UINT InputEdgeCount
const DML_GRAPH_EDGE_DESC * InputEdges
UINT OutputEdgeCount
const DML_GRAPH_EDGE_DESC * OutputEdges
UINT IntermediateEdgeCount
const DML_GRAPH_EDGE_DESC * IntermediateEdges
"""

# Shared member lists for the operator families written with @ above.
FAMILIES = {
    "@UNARY_SB": ["T InputTensor", "T OutputTensor", "S ScaleBias"],
    "@BINARY": ["T ATensor", "T BTensor", "T OutputTensor"],
    "@UNARY": ["T InputTensor", "T OutputTensor"],
    "@ALPHA": ["T InputTensor", "T OutputTensor", "FLOAT Alpha"],
    "@ALPHA_BETA": ["T InputTensor", "T OutputTensor", "FLOAT Alpha", "FLOAT Beta"],
    "@AXES": ["T InputTensor", "T OutputTensor", "UINT AxisCount", "U* Axes"],
}

# Each enum in declaration order; "=N" sets a value, "NAME=OTHER" is an
# alias that takes no number. Counting continues from the previous value.
ENUMS = """
DML_TENSOR_DATA_TYPE: UNKNOWN FLOAT32 FLOAT16 UINT32 UINT16 UINT8 INT32 INT16 INT8 FLOAT64 UINT64 INT64 UINT4 INT4
DML_TENSOR_TYPE: INVALID BUFFER
DML_TENSOR_FLAG: NONE OWNED_BY_DML
DML_OPERATOR: INVALID ELEMENT_WISE_IDENTITY ELEMENT_WISE_ABS ELEMENT_WISE_ACOS ELEMENT_WISE_ADD
 ELEMENT_WISE_ASIN ELEMENT_WISE_ATAN ELEMENT_WISE_CEIL ELEMENT_WISE_CLIP ELEMENT_WISE_COS
 ELEMENT_WISE_DIVIDE ELEMENT_WISE_EXP ELEMENT_WISE_FLOOR ELEMENT_WISE_LOG ELEMENT_WISE_LOGICAL_AND
 ELEMENT_WISE_LOGICAL_EQUALS ELEMENT_WISE_LOGICAL_GREATER_THAN ELEMENT_WISE_LOGICAL_LESS_THAN
 ELEMENT_WISE_LOGICAL_NOT ELEMENT_WISE_LOGICAL_OR ELEMENT_WISE_LOGICAL_XOR ELEMENT_WISE_MAX
 ELEMENT_WISE_MEAN ELEMENT_WISE_MIN ELEMENT_WISE_MULTIPLY ELEMENT_WISE_POW ELEMENT_WISE_CONSTANT_POW
 ELEMENT_WISE_RECIP ELEMENT_WISE_SIN ELEMENT_WISE_SQRT ELEMENT_WISE_SUBTRACT ELEMENT_WISE_TAN
 ELEMENT_WISE_THRESHOLD ELEMENT_WISE_QUANTIZE_LINEAR ELEMENT_WISE_DEQUANTIZE_LINEAR ACTIVATION_ELU
 ACTIVATION_HARDMAX ACTIVATION_HARD_SIGMOID ACTIVATION_IDENTITY ACTIVATION_LEAKY_RELU
 ACTIVATION_LINEAR ACTIVATION_LOG_SOFTMAX ACTIVATION_PARAMETERIZED_RELU
 ACTIVATION_PARAMETRIC_SOFTPLUS ACTIVATION_RELU ACTIVATION_SCALED_ELU ACTIVATION_SCALED_TANH
 ACTIVATION_SIGMOID ACTIVATION_SOFTMAX ACTIVATION_SOFTPLUS ACTIVATION_SOFTSIGN ACTIVATION_TANH
 ACTIVATION_THRESHOLDED_RELU CONVOLUTION GEMM REDUCE AVERAGE_POOLING LP_POOLING MAX_POOLING
 ROI_POOLING SLICE CAST SPLIT JOIN PADDING VALUE_SCALE_2D UPSAMPLE_2D GATHER SPACE_TO_DEPTH
 DEPTH_TO_SPACE TILE TOP_K BATCH_NORMALIZATION MEAN_VARIANCE_NORMALIZATION
 LOCAL_RESPONSE_NORMALIZATION LP_NORMALIZATION RNN LSTM GRU
 ELEMENT_WISE_SIGN ELEMENT_WISE_IS_NAN ELEMENT_WISE_ERF ELEMENT_WISE_SINH ELEMENT_WISE_COSH
 ELEMENT_WISE_TANH ELEMENT_WISE_ASINH ELEMENT_WISE_ACOSH ELEMENT_WISE_ATANH ELEMENT_WISE_IF
 ELEMENT_WISE_ADD1 ACTIVATION_SHRINK MAX_POOLING1 MAX_UNPOOLING DIAGONAL_MATRIX SCATTER_ELEMENTS
 SCATTER=SCATTER_ELEMENTS ONE_HOT RESAMPLE
 ELEMENT_WISE_BIT_SHIFT_LEFT ELEMENT_WISE_BIT_SHIFT_RIGHT ELEMENT_WISE_ROUND
 ELEMENT_WISE_IS_INFINITY ELEMENT_WISE_MODULUS_TRUNCATE ELEMENT_WISE_MODULUS_FLOOR
 FILL_VALUE_CONSTANT FILL_VALUE_SEQUENCE CUMULATIVE_SUMMATION REVERSE_SUBSEQUENCES
 GATHER_ELEMENTS GATHER_ND SCATTER_ND MAX_POOLING2 SLICE1 TOP_K1 DEPTH_TO_SPACE1 SPACE_TO_DEPTH1
 MEAN_VARIANCE_NORMALIZATION1 RESAMPLE1 MATRIX_MULTIPLY_INTEGER QUANTIZED_LINEAR_MATRIX_MULTIPLY
 CONVOLUTION_INTEGER QUANTIZED_LINEAR_CONVOLUTION
 ELEMENT_WISE_BIT_AND ELEMENT_WISE_BIT_OR ELEMENT_WISE_BIT_XOR ELEMENT_WISE_BIT_NOT
 ELEMENT_WISE_BIT_COUNT ELEMENT_WISE_LOGICAL_GREATER_THAN_OR_EQUAL
 ELEMENT_WISE_LOGICAL_LESS_THAN_OR_EQUAL ACTIVATION_CELU ACTIVATION_RELU_GRAD
 AVERAGE_POOLING_GRAD MAX_POOLING_GRAD RANDOM_GENERATOR NONZERO_COORDINATES RESAMPLE_GRAD
 SLICE_GRAD ADAM_OPTIMIZER ARGMIN ARGMAX ROI_ALIGN GATHER_ND1
 ELEMENT_WISE_ATAN_YX ELEMENT_WISE_CLIP_GRAD ELEMENT_WISE_DIFFERENCE_SQUARE
 LOCAL_RESPONSE_NORMALIZATION_GRAD CUMULATIVE_PRODUCT BATCH_NORMALIZATION_GRAD
 ELEMENT_WISE_QUANTIZED_LINEAR_ADD DYNAMIC_QUANTIZE_LINEAR ROI_ALIGN1
 ROI_ALIGN_GRAD BATCH_NORMALIZATION_TRAINING BATCH_NORMALIZATION_TRAINING_GRAD
 ELEMENT_WISE_CLIP1 ELEMENT_WISE_CLIP_GRAD1 PADDING1 ELEMENT_WISE_NEGATE
 ACTIVATION_GELU ACTIVATION_SOFTMAX1 ACTIVATION_LOG_SOFTMAX1 ACTIVATION_HARDMAX1 RESAMPLE2
 RESAMPLE_GRAD1 DIAGONAL_MATRIX1
 MULTIHEAD_ATTENTION
 LP_POOLING1 AVERAGE_POOLING1 ACTIVATION_SWISH ACTIVATION_HARD_SWISH
 QUANTIZED_LINEAR_AVERAGE_POOLING MATRIX_MULTIPLY_INTEGER_TO_FLOAT
 MEAN_VARIANCE_NORMALIZATION2 MULTIHEAD_ATTENTION1 QUANTIZE DEQUANTIZE
 RESAMPLE3 FOLD UNFOLD
DML_REDUCE_FUNCTION: ARGMAX ARGMIN AVERAGE L1 L2 LOG_SUM LOG_SUM_EXP MAX MIN MULTIPLY SUM SUM_SQUARE
DML_MATRIX_TRANSFORM: NONE TRANSPOSE
DML_CONVOLUTION_MODE: CONVOLUTION CROSS_CORRELATION
DML_CONVOLUTION_DIRECTION: FORWARD BACKWARD
DML_PADDING_MODE: CONSTANT EDGE REFLECTION SYMMETRIC WRAP
DML_INTERPOLATION_MODE: NEAREST_NEIGHBOR LINEAR
DML_RECURRENT_NETWORK_DIRECTION: FORWARD BACKWARD BIDIRECTIONAL
DML_ROUNDING_MODE: HALVES_TO_NEAREST_EVEN TOWARD_ZERO TOWARD_INFINITY
DML_IS_INFINITY_MODE: EITHER POSITIVE NEGATIVE
DML_AXIS_DIRECTION: INCREASING DECREASING
DML_DEPTH_SPACE_ORDER: DEPTH_COLUMN_ROW COLUMN_ROW_DEPTH
DML_RANDOM_GENERATOR_TYPE: PHILOX_4X32_10
DML_MULTIHEAD_ATTENTION_MASK_TYPE: NONE KEY_SEQUENCE_LENGTH KEY_SEQUENCE_END_START
 KEY_QUERY_SEQUENCE_LENGTH_START_END BOOLEAN
DML_QUANTIZATION_TYPE: NONE SCALE SCALE_ZERO_POINT
DML_FEATURE_LEVEL: 1_0=0x1000 2_0=0x2000 2_1=0x2100 3_0=0x3000 3_1=0x3100 4_0=0x4000 4_1=0x4100
 5_0=0x5000 5_1=0x5100 5_2=0x5200 6_0=0x6000 6_1=0x6100 6_2=0x6200 6_3=0x6300 6_4=0x6400
DML_FEATURE: TENSOR_DATA_TYPE_SUPPORT FEATURE_LEVELS
DML_EXECUTION_FLAG: NONE=0 ALLOW_HALF_PRECISION_COMPUTATION=0x1 DISABLE_META_COMMANDS=0x2
 DESCRIPTORS_VOLATILE=0x4
DML_CREATE_DEVICE_FLAG: NONE=0 DEBUG=0x1
DML_BINDING_TYPE: NONE BUFFER BUFFER_ARRAY
DML_GRAPH_EDGE_TYPE: INVALID INPUT OUTPUT INTERMEDIATE
DML_GRAPH_NODE_TYPE: INVALID OPERATOR CONSTANT
"""


def parse_structs():
    structs, current = [], None
    for line in STRUCTS.strip().splitlines():
        line = line.strip()
        if not line:
            current = None
        elif line.startswith("@"):
            family, *ops = line.split()
            for op in ops:
                structs.append((op + "_OPERATOR_DESC", list(FAMILIES[family])))
        elif current is None:
            current = (line, [])
            structs.append(current)
        else:
            current[1].append(line)
    return structs


def member(text):
    kind, name = text.rsplit(" ", 1)
    ctype = ABBREV.get(kind, kind)
    if ctype.endswith("*"):
        size_align = (8, 8)
    elif ctype in SCALAR:
        size_align = SCALAR[ctype]
    elif ctype.startswith("DML_"):  # an enum
        size_align = (4, 4)
    else:
        sys.exit("unknown member type: " + text)
    return ctype, name, size_align


def layout(members):
    offset, align_max, rows = 0, 1, []
    for text in members:
        ctype, name, (size, align) = member(text)
        offset = (offset + align - 1) // align * align
        rows.append((ctype, name, offset))
        offset += size
        align_max = max(align_max, align)
    return rows, (offset + align_max - 1) // align_max * align_max


def parse_enums():
    enums, text = [], " ".join(ENUMS.strip().splitlines())
    for chunk in text.split(" DML_"):
        prefix, names = chunk.split(":")
        prefix = prefix if prefix.startswith("DML_") else "DML_" + prefix
        value, values = -1, []
        for entry in names.split():
            name, _, rhs = entry.partition("=")
            if rhs and not rhs[0].isdigit():
                values.append((name, dict(values)[rhs]))
                continue
            value = int(rhs, 0) if rhs else value + 1
            values.append((name, value))
        enums.append((prefix, values))
    return enums


def main():
    out = ["/*",
           " * Generated by tests/unit/gen_layout.py from its transcription of DirectML",
           " * 1.15's DirectML.h: do not edit. The layout of every struct on x86-64",
           " * (sizes and offsets computed by the generator), member types, and the value",
           " * of every enumerator.",
           " */",
           "#include <criterion/criterion.h>",
           "#include <stddef.h>",
           "",
           '#include "dmlcl/directml.h"',
           "",
           "#define MEMBER_IS(type, member, expected) \\",
           "    _Generic(((type *)0)->member, expected : 1, default : 0)",
           "#define CHECK_SIZE(type, size) \\",
           '    cr_expect_eq(sizeof(type), (size_t)(size), "sizeof(%s) is %zu, expected %d", #type, \\',
           "                 sizeof(type), (int)(size))",
           "#define CHECK_MEMBER(type, ctype, member, off)                                        \\",
           "    do {                                                                             \\",
           "        cr_expect_eq(offsetof(type, member), (size_t)(off),                          \\",
           '                     "offsetof(%s, %s) is %zu, expected %d", #type, #member,          \\',
           "                     offsetof(type, member), (int)(off));                           \\",
           '        cr_expect(MEMBER_IS(type, member, ctype), "%s.%s is not %s", #type, #member, \\',
           "                  #ctype);                                                           \\",
           "    } while (0)",
           "#define CHECK_ENUM(name, value) \\",
           '    cr_expect_eq((long long)(name), (long long)(value), "%s is %lld, expected %lld", #name, \\',
           "                 (long long)(name), (long long)(value))",
           "",
           "#if UINTPTR_MAX == UINT64_MAX",
           ""]
    structs = parse_structs()
    for name, members in structs:
        rows, size = layout(members)
        out.append("Test(layout, %s)" % name.lower())
        out.append("{")
        out.append("    CHECK_SIZE(%s, %d);" % (name, size))
        for ctype, mname, off in rows:
            out.append("    CHECK_MEMBER(%s, %s, %s, %d);" % (name, ctype, mname, off))
        out.append("}")
        out.append("")
    out.append("Test(layout, scalar_union)")
    out.append("{")
    out.append("    CHECK_SIZE(DML_SCALAR_UNION, 8);")
    for ctype, mname in [("BYTE[8]", "Bytes"), ("INT8", "Int8"), ("UINT8", "UInt8"),
                         ("INT16", "Int16"), ("UINT16", "UInt16"), ("INT32", "Int32"),
                         ("UINT32", "UInt32"), ("INT64", "Int64"), ("UINT64", "UInt64"),
                         ("FLOAT", "Float32"), ("DOUBLE", "Float64")]:
        out.append("    cr_expect_eq(offsetof(DML_SCALAR_UNION, %s), 0);" % mname)
        if ctype != "BYTE[8]":
            out.append("    cr_expect(MEMBER_IS(DML_SCALAR_UNION, %s, %s));" % (mname, ctype))
    out.append("    cr_expect_eq(sizeof(((DML_SCALAR_UNION *)0)->Bytes), 8);")
    out.append("}")
    out.append("")
    out.append("#endif /* 64-bit */")
    out.append("")
    for prefix, values in parse_enums():
        out.append("Test(enum_values, %s)" % prefix.lower())
        out.append("{")
        for name, value in values:
            out.append("    CHECK_ENUM(%s_%s, %s);" % (prefix, name, value))
        out.append("}")
        out.append("")
    sys.stdout.write("\n".join(out))


if __name__ == "__main__":
    main()
