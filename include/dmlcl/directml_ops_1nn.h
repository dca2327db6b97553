/* SPDX-License-Identifier: MIT */
/*
 * dmlcl/directml_ops_1nn.h: DirectML feature level 1.0 operator descriptions,
 * from CONVOLUTION to GRU (network layers, data movement, normalisation,
 * recurrent networks). Part of dmlcl/directml.h; include that instead.
 */
#ifndef DMLCL_DIRECTML_OPS_1NN_H
#define DMLCL_DIRECTML_OPS_1NN_H

#ifndef DMLCL_DIRECTML_H
#error "include dmlcl/directml.h, not dmlcl/directml_ops_1nn.h"
#endif

typedef struct DML_CONVOLUTION_OPERATOR_DESC {
    const DML_TENSOR_DESC *InputTensor;
    const DML_TENSOR_DESC *FilterTensor;
    const DML_TENSOR_DESC *BiasTensor;
    const DML_TENSOR_DESC *OutputTensor;
    DML_CONVOLUTION_MODE Mode;
    DML_CONVOLUTION_DIRECTION Direction;
    UINT DimensionCount;
    const UINT *Strides;
    const UINT *Dilations;
    const UINT *StartPadding;
    const UINT *EndPadding;
    const UINT *OutputPadding;
    UINT GroupCount;
    const DML_OPERATOR_DESC *FusedActivation;
} DML_CONVOLUTION_OPERATOR_DESC;

typedef struct DML_GEMM_OPERATOR_DESC {
    const DML_TENSOR_DESC *ATensor;
    const DML_TENSOR_DESC *BTensor;
    const DML_TENSOR_DESC *CTensor;
    const DML_TENSOR_DESC *OutputTensor;
    DML_MATRIX_TRANSFORM TransA;
    DML_MATRIX_TRANSFORM TransB;
    FLOAT Alpha;
    FLOAT Beta;
    const DML_OPERATOR_DESC *FusedActivation;
} DML_GEMM_OPERATOR_DESC;

typedef struct DML_REDUCE_OPERATOR_DESC {
    DML_REDUCE_FUNCTION Function;
    const DML_TENSOR_DESC *InputTensor;
    const DML_TENSOR_DESC *OutputTensor;
    UINT AxisCount;
    const UINT *Axes;
} DML_REDUCE_OPERATOR_DESC;

typedef struct DML_AVERAGE_POOLING_OPERATOR_DESC {
    const DML_TENSOR_DESC *InputTensor;
    const DML_TENSOR_DESC *OutputTensor;
    UINT DimensionCount;
    const UINT *Strides;
    const UINT *WindowSize;
    const UINT *StartPadding;
    const UINT *EndPadding;
    BOOL IncludePadding;
} DML_AVERAGE_POOLING_OPERATOR_DESC;

typedef struct DML_LP_POOLING_OPERATOR_DESC {
    const DML_TENSOR_DESC *InputTensor;
    const DML_TENSOR_DESC *OutputTensor;
    UINT DimensionCount;
    const UINT *Strides;
    const UINT *WindowSize;
    const UINT *StartPadding;
    const UINT *EndPadding;
    UINT P;
} DML_LP_POOLING_OPERATOR_DESC;

typedef struct DML_MAX_POOLING_OPERATOR_DESC {
    const DML_TENSOR_DESC *InputTensor;
    const DML_TENSOR_DESC *OutputTensor;
    UINT DimensionCount;
    const UINT *Strides;
    const UINT *WindowSize;
    const UINT *StartPadding;
    const UINT *EndPadding;
} DML_MAX_POOLING_OPERATOR_DESC;

typedef struct DML_ROI_POOLING_OPERATOR_DESC {
    const DML_TENSOR_DESC *InputTensor;
    const DML_TENSOR_DESC *ROITensor;
    const DML_TENSOR_DESC *OutputTensor;
    FLOAT SpatialScale;
    DML_SIZE_2D PooledSize;
} DML_ROI_POOLING_OPERATOR_DESC;

typedef struct DML_SLICE_OPERATOR_DESC {
    const DML_TENSOR_DESC *InputTensor;
    const DML_TENSOR_DESC *OutputTensor;
    UINT DimensionCount;
    const UINT *Offsets;
    const UINT *Sizes;
    const UINT *Strides;
} DML_SLICE_OPERATOR_DESC;

typedef struct DML_CAST_OPERATOR_DESC {
    const DML_TENSOR_DESC *InputTensor;
    const DML_TENSOR_DESC *OutputTensor;
} DML_CAST_OPERATOR_DESC;

typedef struct DML_SPLIT_OPERATOR_DESC {
    const DML_TENSOR_DESC *InputTensor;
    UINT OutputCount;
    const DML_TENSOR_DESC *OutputTensors;
    UINT Axis;
} DML_SPLIT_OPERATOR_DESC;

typedef struct DML_JOIN_OPERATOR_DESC {
    UINT InputCount;
    const DML_TENSOR_DESC *InputTensors;
    const DML_TENSOR_DESC *OutputTensor;
    UINT Axis;
} DML_JOIN_OPERATOR_DESC;

typedef struct DML_PADDING_OPERATOR_DESC {
    const DML_TENSOR_DESC *InputTensor;
    const DML_TENSOR_DESC *OutputTensor;
    DML_PADDING_MODE PaddingMode;
    FLOAT PaddingValue;
    UINT DimensionCount;
    const UINT *StartPadding;
    const UINT *EndPadding;
} DML_PADDING_OPERATOR_DESC;

typedef struct DML_VALUE_SCALE_2D_OPERATOR_DESC {
    const DML_TENSOR_DESC *InputTensor;
    const DML_TENSOR_DESC *OutputTensor;
    FLOAT Scale;
    UINT ChannelCount;
    const FLOAT *Bias;
} DML_VALUE_SCALE_2D_OPERATOR_DESC;

typedef struct DML_UPSAMPLE_2D_OPERATOR_DESC {
    const DML_TENSOR_DESC *InputTensor;
    const DML_TENSOR_DESC *OutputTensor;
    DML_SIZE_2D ScaleSize;
    DML_INTERPOLATION_MODE InterpolationMode;
} DML_UPSAMPLE_2D_OPERATOR_DESC;

typedef struct DML_GATHER_OPERATOR_DESC {
    const DML_TENSOR_DESC *InputTensor;
    const DML_TENSOR_DESC *IndicesTensor;
    const DML_TENSOR_DESC *OutputTensor;
    UINT Axis;
    UINT IndexDimensions;
} DML_GATHER_OPERATOR_DESC;

typedef struct DML_SPACE_TO_DEPTH_OPERATOR_DESC {
    const DML_TENSOR_DESC *InputTensor;
    const DML_TENSOR_DESC *OutputTensor;
    UINT BlockSize;
} DML_SPACE_TO_DEPTH_OPERATOR_DESC;

typedef struct DML_DEPTH_TO_SPACE_OPERATOR_DESC {
    const DML_TENSOR_DESC *InputTensor;
    const DML_TENSOR_DESC *OutputTensor;
    UINT BlockSize;
} DML_DEPTH_TO_SPACE_OPERATOR_DESC;

typedef struct DML_TILE_OPERATOR_DESC {
    const DML_TENSOR_DESC *InputTensor;
    const DML_TENSOR_DESC *OutputTensor;
    UINT RepeatsCount;
    const UINT *Repeats;
} DML_TILE_OPERATOR_DESC;

typedef struct DML_TOP_K_OPERATOR_DESC {
    const DML_TENSOR_DESC *InputTensor;
    const DML_TENSOR_DESC *OutputValueTensor;
    const DML_TENSOR_DESC *OutputIndexTensor;
    UINT Axis;
    UINT K;
} DML_TOP_K_OPERATOR_DESC;

typedef struct DML_BATCH_NORMALIZATION_OPERATOR_DESC {
    const DML_TENSOR_DESC *InputTensor;
    const DML_TENSOR_DESC *MeanTensor;
    const DML_TENSOR_DESC *VarianceTensor;
    const DML_TENSOR_DESC *ScaleTensor;
    const DML_TENSOR_DESC *BiasTensor;
    const DML_TENSOR_DESC *OutputTensor;
    BOOL Spatial;
    FLOAT Epsilon;
    const DML_OPERATOR_DESC *FusedActivation;
} DML_BATCH_NORMALIZATION_OPERATOR_DESC;

typedef struct DML_MEAN_VARIANCE_NORMALIZATION_OPERATOR_DESC {
    const DML_TENSOR_DESC *InputTensor;
    const DML_TENSOR_DESC *ScaleTensor;
    const DML_TENSOR_DESC *BiasTensor;
    const DML_TENSOR_DESC *OutputTensor;
    BOOL CrossChannel;
    BOOL NormalizeVariance;
    FLOAT Epsilon;
    const DML_OPERATOR_DESC *FusedActivation;
} DML_MEAN_VARIANCE_NORMALIZATION_OPERATOR_DESC;

typedef struct DML_LOCAL_RESPONSE_NORMALIZATION_OPERATOR_DESC {
    const DML_TENSOR_DESC *InputTensor;
    const DML_TENSOR_DESC *OutputTensor;
    BOOL CrossChannel;
    UINT LocalSize;
    FLOAT Alpha;
    FLOAT Beta;
    FLOAT Bias;
} DML_LOCAL_RESPONSE_NORMALIZATION_OPERATOR_DESC;

typedef struct DML_LP_NORMALIZATION_OPERATOR_DESC {
    const DML_TENSOR_DESC *InputTensor;
    const DML_TENSOR_DESC *OutputTensor;
    UINT Axis;
    FLOAT Epsilon;
    UINT P;
} DML_LP_NORMALIZATION_OPERATOR_DESC;

typedef struct DML_RNN_OPERATOR_DESC {
    const DML_TENSOR_DESC *InputTensor;
    const DML_TENSOR_DESC *WeightTensor;
    const DML_TENSOR_DESC *RecurrenceTensor;
    const DML_TENSOR_DESC *BiasTensor;
    const DML_TENSOR_DESC *HiddenInitTensor;
    const DML_TENSOR_DESC *SequenceLengthsTensor;
    const DML_TENSOR_DESC *OutputSequenceTensor;
    const DML_TENSOR_DESC *OutputSingleTensor;
    UINT ActivationDescCount;
    const DML_OPERATOR_DESC *ActivationDescs;
    DML_RECURRENT_NETWORK_DIRECTION Direction;
} DML_RNN_OPERATOR_DESC;

typedef struct DML_LSTM_OPERATOR_DESC {
    const DML_TENSOR_DESC *InputTensor;
    const DML_TENSOR_DESC *WeightTensor;
    const DML_TENSOR_DESC *RecurrenceTensor;
    const DML_TENSOR_DESC *BiasTensor;
    const DML_TENSOR_DESC *HiddenInitTensor;
    const DML_TENSOR_DESC *CellMemInitTensor;
    const DML_TENSOR_DESC *SequenceLengthsTensor;
    const DML_TENSOR_DESC *PeepholeTensor;
    const DML_TENSOR_DESC *OutputSequenceTensor;
    const DML_TENSOR_DESC *OutputSingleTensor;
    const DML_TENSOR_DESC *OutputCellSingleTensor;
    UINT ActivationDescCount;
    const DML_OPERATOR_DESC *ActivationDescs;
    DML_RECURRENT_NETWORK_DIRECTION Direction;
    float ClipThreshold; /* plain float in DirectML too */
    BOOL UseClipThreshold;
    BOOL CoupleInputForget;
} DML_LSTM_OPERATOR_DESC;

typedef struct DML_GRU_OPERATOR_DESC {
    const DML_TENSOR_DESC *InputTensor;
    const DML_TENSOR_DESC *WeightTensor;
    const DML_TENSOR_DESC *RecurrenceTensor;
    const DML_TENSOR_DESC *BiasTensor;
    const DML_TENSOR_DESC *HiddenInitTensor;
    const DML_TENSOR_DESC *SequenceLengthsTensor;
    const DML_TENSOR_DESC *OutputSequenceTensor;
    const DML_TENSOR_DESC *OutputSingleTensor;
    UINT ActivationDescCount;
    const DML_OPERATOR_DESC *ActivationDescs;
    DML_RECURRENT_NETWORK_DIRECTION Direction;
    BOOL LinearBeforeReset;
} DML_GRU_OPERATOR_DESC;

#endif /* DMLCL_DIRECTML_OPS_1NN_H */
