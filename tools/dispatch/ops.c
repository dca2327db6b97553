/* SPDX-License-Identifier: MIT */
/*
 * DirectML operator descriptors from a model's "desc": one table row per
 * operator, one entry per member of its DML_*_OPERATOR_DESC in the header's
 * order (which is also the order of its binding slots). A member is read by
 * its kind; DxDispatch's defaults apply (a tensor desc's Type, Flags,
 * DimensionCount, Strides, TotalTensorSizeInBytes and alignment; optional
 * pointers absent are NULL), and a count member (InputCount, DimensionCount,
 * RepeatsCount, ...) may be left out: it is then the length of the lists it
 * counts.
 */
#include <stdio.h>
#include <string.h>

#include "dispatch.h"
#include "internal.h" /* dmli_operator_type_name, dmli_op_class_find */

typedef enum kind {
    K_TENSOR,      /* const DML_TENSOR_DESC * */
    K_TENSOR_LIST, /* const DML_TENSOR_DESC * to count descs */
    K_UINT,        /* UINT */
    K_COUNT,       /* UINT that counts the lists naming it */
    K_FLOAT,       /* FLOAT */
    K_UINT_LIST,   /* const UINT * */
    K_INT_LIST,    /* const INT * */
    K_ENUM,        /* an enum of DirectML's */
    K_DATA_TYPE,   /* DML_TENSOR_DATA_TYPE */
    K_SCALAR,      /* DML_SCALAR_UNION of the type in member `ref` */
    K_SCALE_BIAS,  /* const DML_SCALE_BIAS *, optional */
    K_FUSED,       /* const DML_OPERATOR_DESC *, optional: {"Type": ACTIVATION_*, members} */
    K_FLOAT_LIST,  /* const FLOAT * */
    K_SIZE_2D,     /* DML_SIZE_2D: {"Width": w, "Height": h} */
    K_FUSED_LIST,  /* const DML_OPERATOR_DESC * to count activations, each as K_FUSED's */
    K_INT,         /* INT */
} kind;

enum { IN = 1, OUT = 2, OPTIONAL = 4 }; /* OPTIONAL: a tensor member that may be absent (NULL) */

typedef struct field {
    const char *name;
    kind kind;
    size_t offset;
    int role;          /* tensors: IN or OUT, | OPTIONAL */
    const char *ref;   /* lists: the count member; K_SCALAR: the type member */
    const dsp_enum *e; /* K_ENUM */
} field;

typedef struct op_row {
    DML_OPERATOR_TYPE type;
    const char *desc_name; /* "DML_GATHER_OPERATOR_DESC" */
    size_t size;
    const field *fields;
} op_row;

#define MEMBER(s, m) offsetof(s, m)
#define TENSOR(s, m, role)                           \
    {                                                \
#m, K_TENSOR, MEMBER(s, m), role, NULL, NULL \
    }
#define OPTIONAL_TENSOR(s, m, role)                               \
    {                                                             \
#m, K_TENSOR, MEMBER(s, m), (role) | OPTIONAL, NULL, NULL \
    }
#define TENSORS(s, m, role, count)                          \
    {                                                       \
#m, K_TENSOR_LIST, MEMBER(s, m), role, #count, NULL \
    }
#define UINTF(s, m)                             \
    {                                           \
#m, K_UINT, MEMBER(s, m), 0, NULL, NULL \
    }
#define INTF(s, m)                             \
    {                                          \
#m, K_INT, MEMBER(s, m), 0, NULL, NULL \
    }
#define COUNT(s, m)                              \
    {                                            \
#m, K_COUNT, MEMBER(s, m), 0, NULL, NULL \
    }
#define FLOATF(s, m)                             \
    {                                            \
#m, K_FLOAT, MEMBER(s, m), 0, NULL, NULL \
    }
#define UINTS(s, m, count)                             \
    {                                                  \
#m, K_UINT_LIST, MEMBER(s, m), 0, #count, NULL \
    }
#define INTS(s, m, count)                             \
    {                                                 \
#m, K_INT_LIST, MEMBER(s, m), 0, #count, NULL \
    }
#define ENUMF(s, m, e)                       \
    {                                        \
#m, K_ENUM, MEMBER(s, m), 0, NULL, e \
    }
#define DATA_TYPE(s, m)                              \
    {                                                \
#m, K_DATA_TYPE, MEMBER(s, m), 0, NULL, NULL \
    }
#define SCALAR(s, m, type)                         \
    {                                              \
#m, K_SCALAR, MEMBER(s, m), 0, #type, NULL \
    }
#define SCALE_BIAS(s, m)                              \
    {                                                 \
#m, K_SCALE_BIAS, MEMBER(s, m), 0, NULL, NULL \
    }
#define FUSED(s, m)                              \
    {                                            \
#m, K_FUSED, MEMBER(s, m), 0, NULL, NULL \
    }
#define FUSED_LIST(s, m, count)                         \
    {                                                   \
#m, K_FUSED_LIST, MEMBER(s, m), 0, #count, NULL \
    }
#define FLOATS(s, m, count)                             \
    {                                                   \
#m, K_FLOAT_LIST, MEMBER(s, m), 0, #count, NULL \
    }
#define SIZE_2D(s, m)                              \
    {                                              \
#m, K_SIZE_2D, MEMBER(s, m), 0, NULL, NULL \
    }
#define END                       \
    {                             \
        NULL, 0, 0, 0, NULL, NULL \
    }

static const dsp_enum_value padding_modes[] = {
    {"CONSTANT", DML_PADDING_MODE_CONSTANT},
    {"EDGE", DML_PADDING_MODE_EDGE},
    {"REFLECTION", DML_PADDING_MODE_REFLECTION},
    {"SYMMETRIC", DML_PADDING_MODE_SYMMETRIC},
    {"WRAP", DML_PADDING_MODE_WRAP},
    {NULL, 0},
};
static const dsp_enum padding_mode = {"DML_PADDING_MODE", "DML_PADDING_MODE_", padding_modes};

static const dsp_enum_value orders[] = {
    {"DEPTH_COLUMN_ROW", DML_DEPTH_SPACE_ORDER_DEPTH_COLUMN_ROW},
    {"COLUMN_ROW_DEPTH", DML_DEPTH_SPACE_ORDER_COLUMN_ROW_DEPTH},
    {NULL, 0},
};
static const dsp_enum order = {"DML_DEPTH_SPACE_ORDER", "DML_DEPTH_SPACE_ORDER_", orders};

static const dsp_enum_value rounding_modes[] = {
    {"HALVES_TO_NEAREST_EVEN", DML_ROUNDING_MODE_HALVES_TO_NEAREST_EVEN},
    {"TOWARD_ZERO", DML_ROUNDING_MODE_TOWARD_ZERO},
    {"TOWARD_INFINITY", DML_ROUNDING_MODE_TOWARD_INFINITY},
    {NULL, 0},
};
static const dsp_enum rounding_mode = {"DML_ROUNDING_MODE", "DML_ROUNDING_MODE_", rounding_modes};

static const dsp_enum_value quantization_types[] = {
    {"NONE", DML_QUANTIZATION_TYPE_NONE},
    {"SCALE", DML_QUANTIZATION_TYPE_SCALE},
    {"SCALE_ZERO_POINT", DML_QUANTIZATION_TYPE_SCALE_ZERO_POINT},
    {NULL, 0},
};
static const dsp_enum quantization_type = {"DML_QUANTIZATION_TYPE", "DML_QUANTIZATION_TYPE_",
                                           quantization_types};

static const dsp_enum_value infinity_modes[] = {
    {"EITHER", DML_IS_INFINITY_MODE_EITHER},
    {"POSITIVE", DML_IS_INFINITY_MODE_POSITIVE},
    {"NEGATIVE", DML_IS_INFINITY_MODE_NEGATIVE},
    {NULL, 0},
};
static const dsp_enum infinity_mode = {"DML_IS_INFINITY_MODE", "DML_IS_INFINITY_MODE_",
                                       infinity_modes};

static const dsp_enum_value reduce_functions[] = {
    {"ARGMAX", DML_REDUCE_FUNCTION_ARGMAX},
    {"ARGMIN", DML_REDUCE_FUNCTION_ARGMIN},
    {"AVERAGE", DML_REDUCE_FUNCTION_AVERAGE},
    {"L1", DML_REDUCE_FUNCTION_L1},
    {"L2", DML_REDUCE_FUNCTION_L2},
    {"LOG_SUM", DML_REDUCE_FUNCTION_LOG_SUM},
    {"LOG_SUM_EXP", DML_REDUCE_FUNCTION_LOG_SUM_EXP},
    {"MAX", DML_REDUCE_FUNCTION_MAX},
    {"MIN", DML_REDUCE_FUNCTION_MIN},
    {"MULTIPLY", DML_REDUCE_FUNCTION_MULTIPLY},
    {"SUM", DML_REDUCE_FUNCTION_SUM},
    {"SUM_SQUARE", DML_REDUCE_FUNCTION_SUM_SQUARE},
    {NULL, 0},
};
static const dsp_enum reduce_function = {"DML_REDUCE_FUNCTION", "DML_REDUCE_FUNCTION_",
                                         reduce_functions};

static const dsp_enum_value axis_directions[] = {
    {"INCREASING", DML_AXIS_DIRECTION_INCREASING},
    {"DECREASING", DML_AXIS_DIRECTION_DECREASING},
    {NULL, 0},
};
static const dsp_enum axis_direction = {"DML_AXIS_DIRECTION", "DML_AXIS_DIRECTION_",
                                        axis_directions};

static const dsp_enum_value recurrent_directions[] = {
    {"FORWARD", DML_RECURRENT_NETWORK_DIRECTION_FORWARD},
    {"BACKWARD", DML_RECURRENT_NETWORK_DIRECTION_BACKWARD},
    {"BIDIRECTIONAL", DML_RECURRENT_NETWORK_DIRECTION_BIDIRECTIONAL},
    {NULL, 0},
};
static const dsp_enum recurrent_direction = {
    "DML_RECURRENT_NETWORK_DIRECTION", "DML_RECURRENT_NETWORK_DIRECTION_", recurrent_directions};
static const dsp_enum_value random_generator_types[] = {
    {"PHILOX_4X32_10", DML_RANDOM_GENERATOR_TYPE_PHILOX_4X32_10},
    {NULL, 0},
};
static const dsp_enum random_generator_type = {
    "DML_RANDOM_GENERATOR_TYPE", "DML_RANDOM_GENERATOR_TYPE_", random_generator_types};

static const dsp_enum_value attention_mask_types[] = {
    {"NONE", DML_MULTIHEAD_ATTENTION_MASK_TYPE_NONE},
    {"KEY_SEQUENCE_LENGTH", DML_MULTIHEAD_ATTENTION_MASK_TYPE_KEY_SEQUENCE_LENGTH},
    {"KEY_SEQUENCE_END_START", DML_MULTIHEAD_ATTENTION_MASK_TYPE_KEY_SEQUENCE_END_START},
    {"KEY_QUERY_SEQUENCE_LENGTH_START_END",
     DML_MULTIHEAD_ATTENTION_MASK_TYPE_KEY_QUERY_SEQUENCE_LENGTH_START_END},
    {"BOOLEAN", DML_MULTIHEAD_ATTENTION_MASK_TYPE_BOOLEAN},
    {NULL, 0},
};
static const dsp_enum attention_mask_type = {"DML_MULTIHEAD_ATTENTION_MASK_TYPE",
                                             "DML_MULTIHEAD_ATTENTION_MASK_TYPE_",
                                             attention_mask_types};

static const dsp_enum_value interpolation_modes[] = {
    {"NEAREST_NEIGHBOR", DML_INTERPOLATION_MODE_NEAREST_NEIGHBOR},
    {"LINEAR", DML_INTERPOLATION_MODE_LINEAR},
    {NULL, 0},
};
static const dsp_enum interpolation_mode = {"DML_INTERPOLATION_MODE", "DML_INTERPOLATION_MODE_",
                                            interpolation_modes};
static const dsp_enum_value matrix_transforms[] = {
    {"NONE", DML_MATRIX_TRANSFORM_NONE},
    {"TRANSPOSE", DML_MATRIX_TRANSFORM_TRANSPOSE},
    {NULL, 0},
};
static const dsp_enum matrix_transform = {"DML_MATRIX_TRANSFORM", "DML_MATRIX_TRANSFORM_",
                                          matrix_transforms};
static const dsp_enum_value convolution_modes[] = {
    {"CONVOLUTION", DML_CONVOLUTION_MODE_CONVOLUTION},
    {"CROSS_CORRELATION", DML_CONVOLUTION_MODE_CROSS_CORRELATION},
    {NULL, 0},
};
static const dsp_enum convolution_mode = {"DML_CONVOLUTION_MODE", "DML_CONVOLUTION_MODE_",
                                          convolution_modes};
static const dsp_enum_value convolution_directions[] = {
    {"FORWARD", DML_CONVOLUTION_DIRECTION_FORWARD},
    {"BACKWARD", DML_CONVOLUTION_DIRECTION_BACKWARD},
    {NULL, 0},
};
static const dsp_enum convolution_direction = {
    "DML_CONVOLUTION_DIRECTION", "DML_CONVOLUTION_DIRECTION_", convolution_directions};

/* ---- The descriptors --------------------------------------------------------------- */

#define S DML_ELEMENT_WISE_IDENTITY_OPERATOR_DESC
static const field unary_sb[] = {TENSOR(S, InputTensor, IN), TENSOR(S, OutputTensor, OUT),
                                 SCALE_BIAS(S, ScaleBias), END};
#undef S
#define S DML_ELEMENT_WISE_NEGATE_OPERATOR_DESC
static const field unary[] = {TENSOR(S, InputTensor, IN), TENSOR(S, OutputTensor, OUT), END};
#undef S
#define S DML_ELEMENT_WISE_ADD_OPERATOR_DESC
static const field binary[] = {TENSOR(S, ATensor, IN), TENSOR(S, BTensor, IN),
                               TENSOR(S, OutputTensor, OUT), END};
#undef S
#define S DML_GATHER_OPERATOR_DESC
static const field gather[] = {TENSOR(S, InputTensor, IN),   TENSOR(S, IndicesTensor, IN),
                               TENSOR(S, OutputTensor, OUT), UINTF(S, Axis),
                               UINTF(S, IndexDimensions),    END};
#undef S
#define S DML_GATHER_ELEMENTS_OPERATOR_DESC
static const field gather_elements[] = {TENSOR(S, InputTensor, IN), TENSOR(S, IndicesTensor, IN),
                                        TENSOR(S, OutputTensor, OUT), UINTF(S, Axis), END};
#undef S
#define S DML_GATHER_ND_OPERATOR_DESC
static const field gather_nd[] = {TENSOR(S, InputTensor, IN),      TENSOR(S, IndicesTensor, IN),
                                  TENSOR(S, OutputTensor, OUT),    UINTF(S, InputDimensionCount),
                                  UINTF(S, IndicesDimensionCount), END};
#undef S
#define S DML_GATHER_ND1_OPERATOR_DESC
static const field gather_nd1[] = {TENSOR(S, InputTensor, IN),
                                   TENSOR(S, IndicesTensor, IN),
                                   TENSOR(S, OutputTensor, OUT),
                                   UINTF(S, InputDimensionCount),
                                   UINTF(S, IndicesDimensionCount),
                                   UINTF(S, BatchDimensionCount),
                                   END};
#undef S
#define S DML_SCATTER_ELEMENTS_OPERATOR_DESC
static const field scatter_elements[] = {TENSOR(S, InputTensor, IN),
                                         TENSOR(S, IndicesTensor, IN),
                                         TENSOR(S, UpdatesTensor, IN),
                                         TENSOR(S, OutputTensor, OUT),
                                         UINTF(S, Axis),
                                         END};
#undef S
#define S DML_SCATTER_ND_OPERATOR_DESC
static const field scatter_nd[] = {TENSOR(S, InputTensor, IN),
                                   TENSOR(S, IndicesTensor, IN),
                                   TENSOR(S, UpdatesTensor, IN),
                                   TENSOR(S, OutputTensor, OUT),
                                   UINTF(S, InputDimensionCount),
                                   UINTF(S, IndicesDimensionCount),
                                   END};
#undef S
#define S DML_ONE_HOT_OPERATOR_DESC
static const field one_hot[] = {TENSOR(S, IndicesTensor, IN), TENSOR(S, ValuesTensor, IN),
                                TENSOR(S, OutputTensor, OUT), UINTF(S, Axis), END};
#undef S
#define S DML_DIAGONAL_MATRIX_OPERATOR_DESC
static const field diagonal_matrix[] = {TENSOR(S, OutputTensor, OUT), INTF(S, Offset),
                                        FLOATF(S, Value), END};
#undef S
#define S DML_DIAGONAL_MATRIX1_OPERATOR_DESC
static const field diagonal_matrix1[] = {OPTIONAL_TENSOR(S, InputTensor, IN),
                                         TENSOR(S, OutputTensor, OUT),
                                         DATA_TYPE(S, ValueDataType),
                                         SCALAR(S, Value, ValueDataType),
                                         INTF(S, DiagonalFillBegin),
                                         INTF(S, DiagonalFillEnd),
                                         END};
#undef S
#define S DML_NONZERO_COORDINATES_OPERATOR_DESC
static const field nonzero_coordinates[] = {TENSOR(S, InputTensor, IN),
                                            TENSOR(S, OutputCountTensor, OUT),
                                            TENSOR(S, OutputCoordinatesTensor, OUT), END};
#undef S
#define S DML_REVERSE_SUBSEQUENCES_OPERATOR_DESC
static const field reverse_subsequences[] = {TENSOR(S, InputTensor, IN),
                                             TENSOR(S, SequenceLengthsTensor, IN),
                                             TENSOR(S, OutputTensor, OUT), UINTF(S, Axis), END};
#undef S
#define S DML_MAX_UNPOOLING_OPERATOR_DESC
static const field max_unpooling[] = {TENSOR(S, InputTensor, IN), TENSOR(S, IndicesTensor, IN),
                                      TENSOR(S, OutputTensor, OUT), END};
#undef S
#define S DML_RANDOM_GENERATOR_OPERATOR_DESC
static const field random_generator[] = {
    TENSOR(S, InputStateTensor, IN), TENSOR(S, OutputTensor, OUT),
    OPTIONAL_TENSOR(S, OutputStateTensor, OUT), ENUMF(S, Type, &random_generator_type), END};
#undef S
#define S DML_ROI_POOLING_OPERATOR_DESC
static const field roi_pooling[] = {TENSOR(S, InputTensor, IN),   TENSOR(S, ROITensor, IN),
                                    TENSOR(S, OutputTensor, OUT), FLOATF(S, SpatialScale),
                                    SIZE_2D(S, PooledSize),       END};
#undef S
#define S DML_ROI_ALIGN_OPERATOR_DESC
static const field roi_align[] = {TENSOR(S, InputTensor, IN),
                                  TENSOR(S, ROITensor, IN),
                                  TENSOR(S, BatchIndicesTensor, IN),
                                  TENSOR(S, OutputTensor, OUT),
                                  ENUMF(S, ReductionFunction, &reduce_function),
                                  ENUMF(S, InterpolationMode, &interpolation_mode),
                                  FLOATF(S, SpatialScaleX),
                                  FLOATF(S, SpatialScaleY),
                                  FLOATF(S, OutOfBoundsInputValue),
                                  UINTF(S, MinimumSamplesPerOutput),
                                  UINTF(S, MaximumSamplesPerOutput),
                                  END};
#undef S
#define S DML_ROI_ALIGN1_OPERATOR_DESC
static const field roi_align1[] = {TENSOR(S, InputTensor, IN),
                                   TENSOR(S, ROITensor, IN),
                                   TENSOR(S, BatchIndicesTensor, IN),
                                   TENSOR(S, OutputTensor, OUT),
                                   ENUMF(S, ReductionFunction, &reduce_function),
                                   ENUMF(S, InterpolationMode, &interpolation_mode),
                                   FLOATF(S, SpatialScaleX),
                                   FLOATF(S, SpatialScaleY),
                                   FLOATF(S, InputPixelOffset),
                                   FLOATF(S, OutputPixelOffset),
                                   FLOATF(S, OutOfBoundsInputValue),
                                   UINTF(S, MinimumSamplesPerOutput),
                                   UINTF(S, MaximumSamplesPerOutput),
                                   UINTF(S, AlignRegionsToCorners),
                                   END};
#undef S
#define S DML_ROI_ALIGN_GRAD_OPERATOR_DESC
static const field roi_align_grad[] = {OPTIONAL_TENSOR(S, InputTensor, IN),
                                       TENSOR(S, InputGradientTensor, IN),
                                       TENSOR(S, ROITensor, IN),
                                       TENSOR(S, BatchIndicesTensor, IN),
                                       OPTIONAL_TENSOR(S, OutputGradientTensor, OUT),
                                       OPTIONAL_TENSOR(S, OutputROIGradientTensor, OUT),
                                       ENUMF(S, ReductionFunction, &reduce_function),
                                       ENUMF(S, InterpolationMode, &interpolation_mode),
                                       FLOATF(S, SpatialScaleX),
                                       FLOATF(S, SpatialScaleY),
                                       FLOATF(S, InputPixelOffset),
                                       FLOATF(S, OutputPixelOffset),
                                       UINTF(S, MinimumSamplesPerOutput),
                                       UINTF(S, MaximumSamplesPerOutput),
                                       UINTF(S, AlignRegionsToCorners),
                                       END};
#undef S
#define S DML_FOLD_OPERATOR_DESC
static const field fold[] = {TENSOR(S, InputTensor, IN),
                             TENSOR(S, OutputTensor, OUT),
                             COUNT(S, DimensionCount),
                             UINTS(S, WindowSizes, DimensionCount),
                             UINTS(S, Strides, DimensionCount),
                             UINTS(S, Dilations, DimensionCount),
                             UINTS(S, StartPadding, DimensionCount),
                             UINTS(S, EndPadding, DimensionCount),
                             END};
#undef S
#define S DML_UNFOLD_OPERATOR_DESC
static const field unfold[] = {TENSOR(S, InputTensor, IN),
                               TENSOR(S, OutputTensor, OUT),
                               COUNT(S, DimensionCount),
                               UINTS(S, WindowSizes, DimensionCount),
                               UINTS(S, Strides, DimensionCount),
                               UINTS(S, Dilations, DimensionCount),
                               UINTS(S, StartPadding, DimensionCount),
                               UINTS(S, EndPadding, DimensionCount),
                               END};
#undef S
#define S DML_SLICE_OPERATOR_DESC
static const field slice[] = {TENSOR(S, InputTensor, IN),
                              TENSOR(S, OutputTensor, OUT),
                              COUNT(S, DimensionCount),
                              UINTS(S, Offsets, DimensionCount),
                              UINTS(S, Sizes, DimensionCount),
                              UINTS(S, Strides, DimensionCount),
                              END};
#undef S
#define S DML_SLICE1_OPERATOR_DESC
static const field slice1[] = {TENSOR(S, InputTensor, IN),
                               TENSOR(S, OutputTensor, OUT),
                               COUNT(S, DimensionCount),
                               UINTS(S, InputWindowOffsets, DimensionCount),
                               UINTS(S, InputWindowSizes, DimensionCount),
                               INTS(S, InputWindowStrides, DimensionCount),
                               END};
#undef S
#define S DML_SLICE_GRAD_OPERATOR_DESC
static const field slice_grad[] = {TENSOR(S, InputGradientTensor, IN),
                                   TENSOR(S, OutputGradientTensor, OUT),
                                   COUNT(S, DimensionCount),
                                   UINTS(S, InputWindowOffsets, DimensionCount),
                                   UINTS(S, InputWindowSizes, DimensionCount),
                                   INTS(S, InputWindowStrides, DimensionCount),
                                   END};
#undef S
#define S DML_AVERAGE_POOLING_GRAD_OPERATOR_DESC
static const field average_pooling_grad[] = {TENSOR(S, InputGradientTensor, IN),
                                             TENSOR(S, OutputGradientTensor, OUT),
                                             COUNT(S, DimensionCount),
                                             UINTS(S, Strides, DimensionCount),
                                             UINTS(S, WindowSize, DimensionCount),
                                             UINTS(S, StartPadding, DimensionCount),
                                             UINTS(S, EndPadding, DimensionCount),
                                             UINTF(S, IncludePadding),
                                             END};
#undef S
#define S DML_MAX_POOLING_GRAD_OPERATOR_DESC
static const field max_pooling_grad[] = {TENSOR(S, InputTensor, IN),
                                         TENSOR(S, InputGradientTensor, IN),
                                         TENSOR(S, OutputGradientTensor, OUT),
                                         COUNT(S, DimensionCount),
                                         UINTS(S, Strides, DimensionCount),
                                         UINTS(S, WindowSize, DimensionCount),
                                         UINTS(S, StartPadding, DimensionCount),
                                         UINTS(S, EndPadding, DimensionCount),
                                         UINTS(S, Dilations, DimensionCount),
                                         END};
#undef S
#define S DML_LOCAL_RESPONSE_NORMALIZATION_GRAD_OPERATOR_DESC
static const field lrn_grad[] = {TENSOR(S, InputTensor, IN),
                                 TENSOR(S, InputGradientTensor, IN),
                                 TENSOR(S, OutputGradientTensor, OUT),
                                 UINTF(S, CrossChannel),
                                 UINTF(S, LocalSize),
                                 FLOATF(S, Alpha),
                                 FLOATF(S, Beta),
                                 FLOATF(S, Bias),
                                 END};
#undef S
#define S DML_ADAM_OPTIMIZER_OPERATOR_DESC
static const field adam[] = {TENSOR(S, InputParametersTensor, IN),
                             TENSOR(S, InputFirstMomentTensor, IN),
                             TENSOR(S, InputSecondMomentTensor, IN),
                             TENSOR(S, GradientTensor, IN),
                             TENSOR(S, TrainingStepTensor, IN),
                             TENSOR(S, OutputParametersTensor, OUT),
                             TENSOR(S, OutputFirstMomentTensor, OUT),
                             TENSOR(S, OutputSecondMomentTensor, OUT),
                             FLOATF(S, LearningRate),
                             FLOATF(S, Beta1),
                             FLOATF(S, Beta2),
                             FLOATF(S, Epsilon),
                             END};
#undef S
#define S DML_TILE_OPERATOR_DESC
static const field tile[] = {TENSOR(S, InputTensor, IN), TENSOR(S, OutputTensor, OUT),
                             COUNT(S, RepeatsCount), UINTS(S, Repeats, RepeatsCount), END};
#undef S
#define S DML_SPACE_TO_DEPTH_OPERATOR_DESC
static const field depth_space[] = {TENSOR(S, InputTensor, IN), TENSOR(S, OutputTensor, OUT),
                                    UINTF(S, BlockSize), END};
#undef S
#define S DML_SPACE_TO_DEPTH1_OPERATOR_DESC
static const field depth_space1[] = {TENSOR(S, InputTensor, IN), TENSOR(S, OutputTensor, OUT),
                                     UINTF(S, BlockSize), ENUMF(S, Order, &order), END};
#undef S
#define S DML_JOIN_OPERATOR_DESC
static const field join[] = {COUNT(S, InputCount), TENSORS(S, InputTensors, IN, InputCount),
                             TENSOR(S, OutputTensor, OUT), UINTF(S, Axis), END};
#undef S
#define S DML_SPLIT_OPERATOR_DESC
static const field split[] = {TENSOR(S, InputTensor, IN), COUNT(S, OutputCount),
                              TENSORS(S, OutputTensors, OUT, OutputCount), UINTF(S, Axis), END};
#undef S
#define S DML_PADDING_OPERATOR_DESC
static const field padding[] = {TENSOR(S, InputTensor, IN),
                                TENSOR(S, OutputTensor, OUT),
                                ENUMF(S, PaddingMode, &padding_mode),
                                FLOATF(S, PaddingValue),
                                COUNT(S, DimensionCount),
                                UINTS(S, StartPadding, DimensionCount),
                                UINTS(S, EndPadding, DimensionCount),
                                END};
#undef S
#define S DML_PADDING1_OPERATOR_DESC
static const field padding1[] = {TENSOR(S, InputTensor, IN),
                                 TENSOR(S, OutputTensor, OUT),
                                 ENUMF(S, PaddingMode, &padding_mode),
                                 DATA_TYPE(S, PaddingValueDataType),
                                 SCALAR(S, PaddingValue, PaddingValueDataType),
                                 COUNT(S, DimensionCount),
                                 UINTS(S, StartPadding, DimensionCount),
                                 UINTS(S, EndPadding, DimensionCount),
                                 END};
#undef S

/* The math rows (src/ops/elementwise_math.c): their other descriptor shapes. */
#define S DML_ELEMENT_WISE_CLIP_OPERATOR_DESC
static const field clip[] = {TENSOR(S, InputTensor, IN),
                             TENSOR(S, OutputTensor, OUT),
                             SCALE_BIAS(S, ScaleBias),
                             FLOATF(S, Min),
                             FLOATF(S, Max),
                             END};
#undef S
#define S DML_ELEMENT_WISE_CLIP1_OPERATOR_DESC
static const field clip1[] = {TENSOR(S, InputTensor, IN),
                              TENSOR(S, OutputTensor, OUT),
                              SCALE_BIAS(S, ScaleBias),
                              DATA_TYPE(S, MinMaxDataType),
                              SCALAR(S, Min, MinMaxDataType),
                              SCALAR(S, Max, MinMaxDataType),
                              END};
#undef S
/* The training operators' element-wise gradients (src/ops/elementwise_math.c). */
#define S DML_ACTIVATION_RELU_GRAD_OPERATOR_DESC
static const field relu_grad[] = {TENSOR(S, InputTensor, IN), TENSOR(S, InputGradientTensor, IN),
                                  TENSOR(S, OutputGradientTensor, OUT), END};
#undef S
#define S DML_ELEMENT_WISE_CLIP_GRAD_OPERATOR_DESC
static const field clip_grad[] = {TENSOR(S, InputTensor, IN),
                                  TENSOR(S, InputGradientTensor, IN),
                                  TENSOR(S, OutputGradientTensor, OUT),
                                  FLOATF(S, Min),
                                  FLOATF(S, Max),
                                  END};
#undef S
#define S DML_ELEMENT_WISE_CLIP_GRAD1_OPERATOR_DESC
static const field clip_grad1[] = {TENSOR(S, InputTensor, IN),
                                   TENSOR(S, InputGradientTensor, IN),
                                   TENSOR(S, OutputGradientTensor, OUT),
                                   DATA_TYPE(S, MinMaxDataType),
                                   SCALAR(S, Min, MinMaxDataType),
                                   SCALAR(S, Max, MinMaxDataType),
                                   END};
#undef S
#define S DML_ELEMENT_WISE_CONSTANT_POW_OPERATOR_DESC
static const field constant_pow[] = {TENSOR(S, InputTensor, IN), TENSOR(S, OutputTensor, OUT),
                                     SCALE_BIAS(S, ScaleBias), FLOATF(S, Exponent), END};
#undef S
#define S DML_ELEMENT_WISE_THRESHOLD_OPERATOR_DESC
static const field threshold[] = {TENSOR(S, InputTensor, IN), TENSOR(S, OutputTensor, OUT),
                                  SCALE_BIAS(S, ScaleBias), FLOATF(S, Min), END};
#undef S
#define S DML_ELEMENT_WISE_POW_OPERATOR_DESC
static const field pow_fields[] = {TENSOR(S, InputTensor, IN), TENSOR(S, ExponentTensor, IN),
                                   TENSOR(S, OutputTensor, OUT), SCALE_BIAS(S, ScaleBias), END};
#undef S
#define S DML_ELEMENT_WISE_ROUND_OPERATOR_DESC
static const field round_fields[] = {TENSOR(S, InputTensor, IN), TENSOR(S, OutputTensor, OUT),
                                     ENUMF(S, RoundingMode, &rounding_mode), END};
#undef S

/* QUANTIZE_LINEAR and DEQUANTIZE_LINEAR (src/ops/elementwise_quant.c): ZeroPointTensor
 * optional (feature level 6.2). */
#define S DML_ELEMENT_WISE_QUANTIZE_LINEAR_OPERATOR_DESC
static const field quantize[] = {TENSOR(S, InputTensor, IN), TENSOR(S, ScaleTensor, IN),
                                 OPTIONAL_TENSOR(S, ZeroPointTensor, IN),
                                 TENSOR(S, OutputTensor, OUT), END};
#undef S
#define S DML_ELEMENT_WISE_DEQUANTIZE_LINEAR_OPERATOR_DESC
static const field dequantize[] = {TENSOR(S, InputTensor, IN), TENSOR(S, ScaleTensor, IN),
                                   OPTIONAL_TENSOR(S, ZeroPointTensor, IN),
                                   TENSOR(S, OutputTensor, OUT), END};
#undef S

/* QUANTIZE and DEQUANTIZE (src/ops/quantize.c): the scale and zero point as a list;
 * QUANTIZED_LINEAR_ADD (src/ops/quantized_add.c): the zero points optional;
 * DYNAMIC_QUANTIZE_LINEAR (src/ops/dynamic_quantize.c): three outputs. */
#define S DML_QUANTIZE_OPERATOR_DESC
static const field quantize_list[] = {
    TENSOR(S, InputTensor, IN),        ENUMF(S, QuantizationType, &quantization_type),
    COUNT(S, QuantizationTensorCount), TENSORS(S, QuantizationTensors, IN, QuantizationTensorCount),
    TENSOR(S, OutputTensor, OUT),      END};
#undef S
#define S DML_DYNAMIC_QUANTIZE_LINEAR_OPERATOR_DESC
static const field dynamic_quantize[] = {TENSOR(S, InputTensor, IN), TENSOR(S, OutputTensor, OUT),
                                         TENSOR(S, OutputScaleTensor, OUT),
                                         TENSOR(S, OutputZeroPointTensor, OUT), END};
#undef S
#define S DML_ELEMENT_WISE_QUANTIZED_LINEAR_ADD_OPERATOR_DESC
static const field quantized_add[] = {TENSOR(S, ATensor, IN),
                                      TENSOR(S, AScaleTensor, IN),
                                      OPTIONAL_TENSOR(S, AZeroPointTensor, IN),
                                      TENSOR(S, BTensor, IN),
                                      TENSOR(S, BScaleTensor, IN),
                                      OPTIONAL_TENSOR(S, BZeroPointTensor, IN),
                                      TENSOR(S, OutputScaleTensor, IN),
                                      OPTIONAL_TENSOR(S, OutputZeroPointTensor, IN),
                                      TENSOR(S, OutputTensor, OUT),
                                      END};
#undef S

/* The logic rows (src/ops/elementwise_logic.c): their other descriptor shapes. */
#define S DML_ELEMENT_WISE_IS_INFINITY_OPERATOR_DESC
static const field is_infinity[] = {TENSOR(S, InputTensor, IN), TENSOR(S, OutputTensor, OUT),
                                    ENUMF(S, InfinityMode, &infinity_mode), END};
#undef S
#define S DML_ELEMENT_WISE_IF_OPERATOR_DESC
static const field if_fields[] = {TENSOR(S, ConditionTensor, IN), TENSOR(S, ATensor, IN),
                                  TENSOR(S, BTensor, IN), TENSOR(S, OutputTensor, OUT), END};
#undef S
#define S DML_FILL_VALUE_CONSTANT_OPERATOR_DESC
static const field fill_constant[] = {TENSOR(S, OutputTensor, OUT), DATA_TYPE(S, ValueDataType),
                                      SCALAR(S, Value, ValueDataType), END};
#undef S
#define S DML_FILL_VALUE_SEQUENCE_OPERATOR_DESC
static const field fill_sequence[] = {TENSOR(S, OutputTensor, OUT), DATA_TYPE(S, ValueDataType),
                                      SCALAR(S, ValueStart, ValueDataType),
                                      SCALAR(S, ValueDelta, ValueDataType), END};
#undef S

/* The activations (src/ops/elementwise_activation.c) and ADD1's fused activation. */
#define S DML_ACTIVATION_ELU_OPERATOR_DESC
static const field act_alpha[] = {TENSOR(S, InputTensor, IN), TENSOR(S, OutputTensor, OUT),
                                  FLOATF(S, Alpha), END};
#undef S
#define S DML_ACTIVATION_LINEAR_OPERATOR_DESC
static const field act_alpha_beta[] = {TENSOR(S, InputTensor, IN), TENSOR(S, OutputTensor, OUT),
                                       FLOATF(S, Alpha), FLOATF(S, Beta), END};
#undef S
#define S DML_ACTIVATION_SCALED_ELU_OPERATOR_DESC
static const field act_scaled_elu[] = {TENSOR(S, InputTensor, IN), TENSOR(S, OutputTensor, OUT),
                                       FLOATF(S, Alpha), FLOATF(S, Gamma), END};
#undef S
#define S DML_ACTIVATION_SHRINK_OPERATOR_DESC
static const field act_shrink[] = {TENSOR(S, InputTensor, IN), TENSOR(S, OutputTensor, OUT),
                                   FLOATF(S, Bias), FLOATF(S, Threshold), END};
#undef S
#define S DML_ACTIVATION_SOFTPLUS_OPERATOR_DESC
static const field act_softplus[] = {TENSOR(S, InputTensor, IN), TENSOR(S, OutputTensor, OUT),
                                     FLOATF(S, Steepness), END};
#undef S
#define S DML_ACTIVATION_SWISH_OPERATOR_DESC
static const field act_swish[] = {TENSOR(S, InputTensor, IN), TENSOR(S, OutputTensor, OUT),
                                  FLOATF(S, SigmoidInputScale), END};
#undef S
#define S DML_ACTIVATION_PARAMETERIZED_RELU_OPERATOR_DESC
static const field act_prelu[] = {TENSOR(S, InputTensor, IN), TENSOR(S, SlopeTensor, IN),
                                  TENSOR(S, OutputTensor, OUT), END};
#undef S
#define S DML_ELEMENT_WISE_ADD1_OPERATOR_DESC
static const field add1[] = {TENSOR(S, ATensor, IN), TENSOR(S, BTensor, IN),
                             TENSOR(S, OutputTensor, OUT), FUSED(S, FusedActivation), END};
#undef S

/* The normalising operators (src/ops/softmax.c, src/ops/mvn.c); a BOOL is read as a UINT (or
 * true / false). MVN's ScaleTensor and BiasTensor are optional, as DirectML's. */
#define S DML_ACTIVATION_SOFTMAX1_OPERATOR_DESC
static const field softmax1[] = {TENSOR(S, InputTensor, IN), TENSOR(S, OutputTensor, OUT),
                                 COUNT(S, AxisCount), UINTS(S, Axes, AxisCount), END};
#undef S
#define S DML_MEAN_VARIANCE_NORMALIZATION_OPERATOR_DESC
static const field mvn0[] = {TENSOR(S, InputTensor, IN),
                             OPTIONAL_TENSOR(S, ScaleTensor, IN),
                             OPTIONAL_TENSOR(S, BiasTensor, IN),
                             TENSOR(S, OutputTensor, OUT),
                             UINTF(S, CrossChannel),
                             UINTF(S, NormalizeVariance),
                             FLOATF(S, Epsilon),
                             FUSED(S, FusedActivation),
                             END};
#undef S
#define S DML_MEAN_VARIANCE_NORMALIZATION1_OPERATOR_DESC
static const field mvn1[] = {TENSOR(S, InputTensor, IN),
                             OPTIONAL_TENSOR(S, ScaleTensor, IN),
                             OPTIONAL_TENSOR(S, BiasTensor, IN),
                             TENSOR(S, OutputTensor, OUT),
                             COUNT(S, AxisCount),
                             UINTS(S, Axes, AxisCount),
                             UINTF(S, NormalizeVariance),
                             FLOATF(S, Epsilon),
                             FUSED(S, FusedActivation),
                             END};
#undef S
#define S DML_MEAN_VARIANCE_NORMALIZATION2_OPERATOR_DESC
static const field mvn2[] = {TENSOR(S, InputTensor, IN),
                             OPTIONAL_TENSOR(S, ScaleTensor, IN),
                             OPTIONAL_TENSOR(S, BiasTensor, IN),
                             TENSOR(S, OutputTensor, OUT),
                             COUNT(S, AxisCount),
                             UINTS(S, Axes, AxisCount),
                             UINTF(S, UseMean),
                             UINTF(S, UseVariance),
                             FLOATF(S, Epsilon),
                             FUSED(S, FusedActivation),
                             END};
#undef S
#define S DML_LP_NORMALIZATION_OPERATOR_DESC
static const field lp_norm[] = {TENSOR(S, InputTensor, IN),
                                TENSOR(S, OutputTensor, OUT),
                                UINTF(S, Axis),
                                FLOATF(S, Epsilon),
                                UINTF(S, P),
                                END};
#undef S

/* GEMM (src/ops/gemm.c): CTensor optional; TransA, TransB as DML_MATRIX_TRANSFORM names. */
#define S DML_GEMM_OPERATOR_DESC
static const field gemm[] = {TENSOR(S, ATensor, IN),
                             TENSOR(S, BTensor, IN),
                             OPTIONAL_TENSOR(S, CTensor, IN),
                             TENSOR(S, OutputTensor, OUT),
                             ENUMF(S, TransA, &matrix_transform),
                             ENUMF(S, TransB, &matrix_transform),
                             FLOATF(S, Alpha),
                             FLOATF(S, Beta),
                             FUSED(S, FusedActivation),
                             END};
#undef S

/* The reductions (src/ops/reduce.c, batch_norm.c, cumulative.c, top_k.c, lrn.c). */
#define S DML_REDUCE_OPERATOR_DESC
static const field reduce[] = {ENUMF(S, Function, &reduce_function),
                               TENSOR(S, InputTensor, IN),
                               TENSOR(S, OutputTensor, OUT),
                               COUNT(S, AxisCount),
                               UINTS(S, Axes, AxisCount),
                               END};
#undef S
#define S DML_ARGMAX_OPERATOR_DESC
static const field arg_pick[] = {TENSOR(S, InputTensor, IN),
                                 TENSOR(S, OutputTensor, OUT),
                                 COUNT(S, AxisCount),
                                 UINTS(S, Axes, AxisCount),
                                 ENUMF(S, AxisDirection, &axis_direction),
                                 END};
#undef S
#define S DML_BATCH_NORMALIZATION_OPERATOR_DESC
static const field batch_norm[] = {TENSOR(S, InputTensor, IN),
                                   TENSOR(S, MeanTensor, IN),
                                   TENSOR(S, VarianceTensor, IN),
                                   TENSOR(S, ScaleTensor, IN),
                                   TENSOR(S, BiasTensor, IN),
                                   TENSOR(S, OutputTensor, OUT),
                                   UINTF(S, Spatial),
                                   FLOATF(S, Epsilon),
                                   FUSED(S, FusedActivation),
                                   END};
#undef S
#define S DML_BATCH_NORMALIZATION_TRAINING_OPERATOR_DESC
static const field bn_training[] = {TENSOR(S, InputTensor, IN),
                                    TENSOR(S, ScaleTensor, IN),
                                    TENSOR(S, BiasTensor, IN),
                                    OPTIONAL_TENSOR(S, FusedAddTensor, IN),
                                    TENSOR(S, OutputTensor, OUT),
                                    TENSOR(S, OutputMeanTensor, OUT),
                                    TENSOR(S, OutputVarianceTensor, OUT),
                                    FLOATF(S, Epsilon),
                                    FUSED(S, FusedActivation),
                                    END};
#undef S
/* BATCH_NORMALIZATION_GRAD's and _TRAINING_GRAD's descriptors have one layout. */
#define S DML_BATCH_NORMALIZATION_GRAD_OPERATOR_DESC
static const field bn_grad[] = {TENSOR(S, InputTensor, IN),
                                TENSOR(S, InputGradientTensor, IN),
                                TENSOR(S, MeanTensor, IN),
                                TENSOR(S, VarianceTensor, IN),
                                TENSOR(S, ScaleTensor, IN),
                                TENSOR(S, OutputGradientTensor, OUT),
                                TENSOR(S, OutputScaleGradientTensor, OUT),
                                TENSOR(S, OutputBiasGradientTensor, OUT),
                                FLOATF(S, Epsilon),
                                END};
#undef S
/* The recurrent layers (src/ops/recurrent.c). */
#define S DML_RNN_OPERATOR_DESC
static const field rnn[] = {TENSOR(S, InputTensor, IN),
                            TENSOR(S, WeightTensor, IN),
                            TENSOR(S, RecurrenceTensor, IN),
                            OPTIONAL_TENSOR(S, BiasTensor, IN),
                            OPTIONAL_TENSOR(S, HiddenInitTensor, IN),
                            OPTIONAL_TENSOR(S, SequenceLengthsTensor, IN),
                            OPTIONAL_TENSOR(S, OutputSequenceTensor, OUT),
                            OPTIONAL_TENSOR(S, OutputSingleTensor, OUT),
                            COUNT(S, ActivationDescCount),
                            FUSED_LIST(S, ActivationDescs, ActivationDescCount),
                            ENUMF(S, Direction, &recurrent_direction),
                            END};
#undef S
#define S DML_GRU_OPERATOR_DESC
static const field gru[] = {TENSOR(S, InputTensor, IN),
                            TENSOR(S, WeightTensor, IN),
                            TENSOR(S, RecurrenceTensor, IN),
                            OPTIONAL_TENSOR(S, BiasTensor, IN),
                            OPTIONAL_TENSOR(S, HiddenInitTensor, IN),
                            OPTIONAL_TENSOR(S, SequenceLengthsTensor, IN),
                            OPTIONAL_TENSOR(S, OutputSequenceTensor, OUT),
                            OPTIONAL_TENSOR(S, OutputSingleTensor, OUT),
                            COUNT(S, ActivationDescCount),
                            FUSED_LIST(S, ActivationDescs, ActivationDescCount),
                            ENUMF(S, Direction, &recurrent_direction),
                            UINTF(S, LinearBeforeReset),
                            END};
#undef S
#define S DML_LSTM_OPERATOR_DESC
static const field lstm[] = {TENSOR(S, InputTensor, IN),
                             TENSOR(S, WeightTensor, IN),
                             TENSOR(S, RecurrenceTensor, IN),
                             OPTIONAL_TENSOR(S, BiasTensor, IN),
                             OPTIONAL_TENSOR(S, HiddenInitTensor, IN),
                             OPTIONAL_TENSOR(S, CellMemInitTensor, IN),
                             OPTIONAL_TENSOR(S, SequenceLengthsTensor, IN),
                             OPTIONAL_TENSOR(S, PeepholeTensor, IN),
                             OPTIONAL_TENSOR(S, OutputSequenceTensor, OUT),
                             OPTIONAL_TENSOR(S, OutputSingleTensor, OUT),
                             OPTIONAL_TENSOR(S, OutputCellSingleTensor, OUT),
                             COUNT(S, ActivationDescCount),
                             FUSED_LIST(S, ActivationDescs, ActivationDescCount),
                             ENUMF(S, Direction, &recurrent_direction),
                             FLOATF(S, ClipThreshold),
                             UINTF(S, UseClipThreshold),
                             UINTF(S, CoupleInputForget),
                             END};
#undef S
/* Multi-head attention (src/ops/attention.c). */
#define S DML_MULTIHEAD_ATTENTION_OPERATOR_DESC
static const field mha[] = {OPTIONAL_TENSOR(S, QueryTensor, IN),
                            OPTIONAL_TENSOR(S, KeyTensor, IN),
                            OPTIONAL_TENSOR(S, ValueTensor, IN),
                            OPTIONAL_TENSOR(S, StackedQueryKeyTensor, IN),
                            OPTIONAL_TENSOR(S, StackedKeyValueTensor, IN),
                            OPTIONAL_TENSOR(S, StackedQueryKeyValueTensor, IN),
                            OPTIONAL_TENSOR(S, BiasTensor, IN),
                            OPTIONAL_TENSOR(S, MaskTensor, IN),
                            OPTIONAL_TENSOR(S, RelativePositionBiasTensor, IN),
                            OPTIONAL_TENSOR(S, PastKeyTensor, IN),
                            OPTIONAL_TENSOR(S, PastValueTensor, IN),
                            TENSOR(S, OutputTensor, OUT),
                            OPTIONAL_TENSOR(S, OutputPresentKeyTensor, OUT),
                            OPTIONAL_TENSOR(S, OutputPresentValueTensor, OUT),
                            FLOATF(S, Scale),
                            FLOATF(S, MaskFilterValue),
                            UINTF(S, HeadCount),
                            ENUMF(S, MaskType, &attention_mask_type),
                            END};
#undef S
#define S DML_MULTIHEAD_ATTENTION1_OPERATOR_DESC
static const field mha1[] = {OPTIONAL_TENSOR(S, QueryTensor, IN),
                             OPTIONAL_TENSOR(S, KeyTensor, IN),
                             OPTIONAL_TENSOR(S, ValueTensor, IN),
                             OPTIONAL_TENSOR(S, StackedQueryKeyTensor, IN),
                             OPTIONAL_TENSOR(S, StackedKeyValueTensor, IN),
                             OPTIONAL_TENSOR(S, StackedQueryKeyValueTensor, IN),
                             OPTIONAL_TENSOR(S, BiasTensor, IN),
                             OPTIONAL_TENSOR(S, MaskTensor, IN),
                             OPTIONAL_TENSOR(S, RelativePositionBiasTensor, IN),
                             OPTIONAL_TENSOR(S, PastKeyTensor, IN),
                             OPTIONAL_TENSOR(S, PastValueTensor, IN),
                             OPTIONAL_TENSOR(S, PastSequenceLengthsTensor, IN),
                             TENSOR(S, OutputTensor, OUT),
                             OPTIONAL_TENSOR(S, OutputPresentKeyTensor, OUT),
                             OPTIONAL_TENSOR(S, OutputPresentValueTensor, OUT),
                             FLOATF(S, Scale),
                             FLOATF(S, MaskFilterValue),
                             UINTF(S, QueryHeadCount),
                             UINTF(S, KeyValueHeadCount),
                             ENUMF(S, MaskType, &attention_mask_type),
                             END};
#undef S
#define S DML_CUMULATIVE_SUMMATION_OPERATOR_DESC
static const field cumsum[] = {TENSOR(S, InputTensor, IN),
                               TENSOR(S, OutputTensor, OUT),
                               UINTF(S, Axis),
                               ENUMF(S, AxisDirection, &axis_direction),
                               UINTF(S, HasExclusiveSum),
                               END};
#undef S
#define S DML_CUMULATIVE_PRODUCT_OPERATOR_DESC
static const field cumprod[] = {TENSOR(S, InputTensor, IN),
                                TENSOR(S, OutputTensor, OUT),
                                UINTF(S, Axis),
                                ENUMF(S, AxisDirection, &axis_direction),
                                UINTF(S, HasExclusiveProduct),
                                END};
#undef S
#define S DML_TOP_K_OPERATOR_DESC
static const field top_k[] = {TENSOR(S, InputTensor, IN),
                              TENSOR(S, OutputValueTensor, OUT),
                              TENSOR(S, OutputIndexTensor, OUT),
                              UINTF(S, Axis),
                              UINTF(S, K),
                              END};
#undef S
#define S DML_TOP_K1_OPERATOR_DESC
static const field top_k1[] = {TENSOR(S, InputTensor, IN),
                               TENSOR(S, OutputValueTensor, OUT),
                               TENSOR(S, OutputIndexTensor, OUT),
                               UINTF(S, Axis),
                               UINTF(S, K),
                               ENUMF(S, AxisDirection, &axis_direction),
                               END};
#undef S
#define S DML_LOCAL_RESPONSE_NORMALIZATION_OPERATOR_DESC
static const field lrn[] = {TENSOR(S, InputTensor, IN),
                            TENSOR(S, OutputTensor, OUT),
                            UINTF(S, CrossChannel),
                            UINTF(S, LocalSize),
                            FLOATF(S, Alpha),
                            FLOATF(S, Beta),
                            FLOATF(S, Bias),
                            END};
#undef S
/* Pooling (src/ops/pool.c). */
#define S DML_MAX_POOLING_OPERATOR_DESC
static const field max_pooling[] = {TENSOR(S, InputTensor, IN),
                                    TENSOR(S, OutputTensor, OUT),
                                    COUNT(S, DimensionCount),
                                    UINTS(S, Strides, DimensionCount),
                                    UINTS(S, WindowSize, DimensionCount),
                                    UINTS(S, StartPadding, DimensionCount),
                                    UINTS(S, EndPadding, DimensionCount),
                                    END};
#undef S
#define S DML_MAX_POOLING1_OPERATOR_DESC
static const field max_pooling1[] = {TENSOR(S, InputTensor, IN),
                                     TENSOR(S, OutputTensor, OUT),
                                     OPTIONAL_TENSOR(S, OutputIndicesTensor, OUT),
                                     COUNT(S, DimensionCount),
                                     UINTS(S, Strides, DimensionCount),
                                     UINTS(S, WindowSize, DimensionCount),
                                     UINTS(S, StartPadding, DimensionCount),
                                     UINTS(S, EndPadding, DimensionCount),
                                     END};
#undef S
#define S DML_MAX_POOLING2_OPERATOR_DESC
static const field max_pooling2[] = {TENSOR(S, InputTensor, IN),
                                     TENSOR(S, OutputTensor, OUT),
                                     OPTIONAL_TENSOR(S, OutputIndicesTensor, OUT),
                                     COUNT(S, DimensionCount),
                                     UINTS(S, Strides, DimensionCount),
                                     UINTS(S, WindowSize, DimensionCount),
                                     UINTS(S, StartPadding, DimensionCount),
                                     UINTS(S, EndPadding, DimensionCount),
                                     UINTS(S, Dilations, DimensionCount),
                                     END};
#undef S
#define S DML_AVERAGE_POOLING_OPERATOR_DESC
static const field average_pooling[] = {TENSOR(S, InputTensor, IN),
                                        TENSOR(S, OutputTensor, OUT),
                                        COUNT(S, DimensionCount),
                                        UINTS(S, Strides, DimensionCount),
                                        UINTS(S, WindowSize, DimensionCount),
                                        UINTS(S, StartPadding, DimensionCount),
                                        UINTS(S, EndPadding, DimensionCount),
                                        UINTF(S, IncludePadding),
                                        END};
#undef S
#define S DML_QUANTIZED_LINEAR_AVERAGE_POOLING_OPERATOR_DESC
static const field quantized_average_pooling[] = {TENSOR(S, InputTensor, IN),
                                                  TENSOR(S, InputScaleTensor, IN),
                                                  OPTIONAL_TENSOR(S, InputZeroPointTensor, IN),
                                                  TENSOR(S, OutputScaleTensor, IN),
                                                  OPTIONAL_TENSOR(S, OutputZeroPointTensor, IN),
                                                  TENSOR(S, OutputTensor, OUT),
                                                  COUNT(S, DimensionCount),
                                                  UINTS(S, Strides, DimensionCount),
                                                  UINTS(S, WindowSize, DimensionCount),
                                                  UINTS(S, StartPadding, DimensionCount),
                                                  UINTS(S, EndPadding, DimensionCount),
                                                  UINTS(S, Dilations, DimensionCount),
                                                  UINTF(S, IncludePadding),
                                                  END};
#undef S
#define S DML_AVERAGE_POOLING1_OPERATOR_DESC
static const field average_pooling1[] = {TENSOR(S, InputTensor, IN),
                                         TENSOR(S, OutputTensor, OUT),
                                         COUNT(S, DimensionCount),
                                         UINTS(S, Strides, DimensionCount),
                                         UINTS(S, WindowSize, DimensionCount),
                                         UINTS(S, StartPadding, DimensionCount),
                                         UINTS(S, EndPadding, DimensionCount),
                                         UINTS(S, Dilations, DimensionCount),
                                         UINTF(S, IncludePadding),
                                         END};
#undef S
#define S DML_LP_POOLING_OPERATOR_DESC
static const field lp_pooling[] = {TENSOR(S, InputTensor, IN),
                                   TENSOR(S, OutputTensor, OUT),
                                   COUNT(S, DimensionCount),
                                   UINTS(S, Strides, DimensionCount),
                                   UINTS(S, WindowSize, DimensionCount),
                                   UINTS(S, StartPadding, DimensionCount),
                                   UINTS(S, EndPadding, DimensionCount),
                                   UINTF(S, P),
                                   END};
#undef S
#define S DML_LP_POOLING1_OPERATOR_DESC
static const field lp_pooling1[] = {TENSOR(S, InputTensor, IN),
                                    TENSOR(S, OutputTensor, OUT),
                                    COUNT(S, DimensionCount),
                                    UINTS(S, Strides, DimensionCount),
                                    UINTS(S, WindowSize, DimensionCount),
                                    UINTS(S, StartPadding, DimensionCount),
                                    UINTS(S, EndPadding, DimensionCount),
                                    UINTS(S, Dilations, DimensionCount),
                                    UINTF(S, P),
                                    END};
#undef S
/* The conv family (src/ops/conv.c): the five arrays have DimensionCount entries; the tool has
 * no optional tensor members yet, so a model gives BiasTensor. */
#define S DML_CONVOLUTION_OPERATOR_DESC
static const field convolution[] = {TENSOR(S, InputTensor, IN),
                                    TENSOR(S, FilterTensor, IN),
                                    OPTIONAL_TENSOR(S, BiasTensor, IN),
                                    TENSOR(S, OutputTensor, OUT),
                                    ENUMF(S, Mode, &convolution_mode),
                                    ENUMF(S, Direction, &convolution_direction),
                                    COUNT(S, DimensionCount),
                                    UINTS(S, Strides, DimensionCount),
                                    UINTS(S, Dilations, DimensionCount),
                                    UINTS(S, StartPadding, DimensionCount),
                                    UINTS(S, EndPadding, DimensionCount),
                                    UINTS(S, OutputPadding, DimensionCount),
                                    UINTF(S, GroupCount),
                                    FUSED(S, FusedActivation),
                                    END};
#undef S

/* The integer and quantized products and convolutions (src/ops/intmm.c): zero points (and the
 * quantized convolution's and MATRIX_MULTIPLY_INTEGER_TO_FLOAT's bias) optional. */
#define S DML_MATRIX_MULTIPLY_INTEGER_OPERATOR_DESC
static const field matmul_integer[] = {
    TENSOR(S, ATensor, IN),       OPTIONAL_TENSOR(S, AZeroPointTensor, IN),
    TENSOR(S, BTensor, IN),       OPTIONAL_TENSOR(S, BZeroPointTensor, IN),
    TENSOR(S, OutputTensor, OUT), END};
#undef S
#define S DML_QUANTIZED_LINEAR_MATRIX_MULTIPLY_OPERATOR_DESC
static const field qlinear_matmul[] = {TENSOR(S, ATensor, IN),
                                       TENSOR(S, AScaleTensor, IN),
                                       OPTIONAL_TENSOR(S, AZeroPointTensor, IN),
                                       TENSOR(S, BTensor, IN),
                                       TENSOR(S, BScaleTensor, IN),
                                       OPTIONAL_TENSOR(S, BZeroPointTensor, IN),
                                       TENSOR(S, OutputScaleTensor, IN),
                                       OPTIONAL_TENSOR(S, OutputZeroPointTensor, IN),
                                       TENSOR(S, OutputTensor, OUT),
                                       END};
#undef S
#define S DML_MATRIX_MULTIPLY_INTEGER_TO_FLOAT_OPERATOR_DESC
static const field matmul_integer_to_float[] = {TENSOR(S, ATensor, IN),
                                                TENSOR(S, AScaleTensor, IN),
                                                OPTIONAL_TENSOR(S, AZeroPointTensor, IN),
                                                TENSOR(S, BTensor, IN),
                                                TENSOR(S, BScaleTensor, IN),
                                                OPTIONAL_TENSOR(S, BZeroPointTensor, IN),
                                                OPTIONAL_TENSOR(S, BiasTensor, IN),
                                                TENSOR(S, OutputTensor, OUT),
                                                END};
#undef S
#define S DML_CONVOLUTION_INTEGER_OPERATOR_DESC
static const field conv_integer[] = {TENSOR(S, InputTensor, IN),
                                     OPTIONAL_TENSOR(S, InputZeroPointTensor, IN),
                                     TENSOR(S, FilterTensor, IN),
                                     OPTIONAL_TENSOR(S, FilterZeroPointTensor, IN),
                                     TENSOR(S, OutputTensor, OUT),
                                     COUNT(S, DimensionCount),
                                     UINTS(S, Strides, DimensionCount),
                                     UINTS(S, Dilations, DimensionCount),
                                     UINTS(S, StartPadding, DimensionCount),
                                     UINTS(S, EndPadding, DimensionCount),
                                     UINTF(S, GroupCount),
                                     END};
#undef S
#define S DML_QUANTIZED_LINEAR_CONVOLUTION_OPERATOR_DESC
static const field qlinear_conv[] = {TENSOR(S, InputTensor, IN),
                                     TENSOR(S, InputScaleTensor, IN),
                                     OPTIONAL_TENSOR(S, InputZeroPointTensor, IN),
                                     TENSOR(S, FilterTensor, IN),
                                     TENSOR(S, FilterScaleTensor, IN),
                                     OPTIONAL_TENSOR(S, FilterZeroPointTensor, IN),
                                     OPTIONAL_TENSOR(S, BiasTensor, IN),
                                     TENSOR(S, OutputScaleTensor, IN),
                                     OPTIONAL_TENSOR(S, OutputZeroPointTensor, IN),
                                     TENSOR(S, OutputTensor, OUT),
                                     COUNT(S, DimensionCount),
                                     UINTS(S, Strides, DimensionCount),
                                     UINTS(S, Dilations, DimensionCount),
                                     UINTS(S, StartPadding, DimensionCount),
                                     UINTS(S, EndPadding, DimensionCount),
                                     UINTF(S, GroupCount),
                                     END};
#undef S

/* Resampling (src/ops/resample.c). */
#define S DML_UPSAMPLE_2D_OPERATOR_DESC
static const field upsample_2d[] = {TENSOR(S, InputTensor, IN), TENSOR(S, OutputTensor, OUT),
                                    SIZE_2D(S, ScaleSize),
                                    ENUMF(S, InterpolationMode, &interpolation_mode), END};
#undef S
#define S DML_RESAMPLE_OPERATOR_DESC
static const field resample0[] = {TENSOR(S, InputTensor, IN),
                                  TENSOR(S, OutputTensor, OUT),
                                  ENUMF(S, InterpolationMode, &interpolation_mode),
                                  COUNT(S, ScaleCount),
                                  FLOATS(S, Scales, ScaleCount),
                                  END};
#undef S
#define S DML_RESAMPLE1_OPERATOR_DESC
static const field resample1[] = {TENSOR(S, InputTensor, IN),
                                  TENSOR(S, OutputTensor, OUT),
                                  ENUMF(S, InterpolationMode, &interpolation_mode),
                                  COUNT(S, DimensionCount),
                                  FLOATS(S, Scales, DimensionCount),
                                  FLOATS(S, InputPixelOffsets, DimensionCount),
                                  FLOATS(S, OutputPixelOffsets, DimensionCount),
                                  END};
#undef S
#define S DML_RESAMPLE2_OPERATOR_DESC
static const field resample2[] = {TENSOR(S, InputTensor, IN),
                                  TENSOR(S, OutputTensor, OUT),
                                  ENUMF(S, InterpolationMode, &interpolation_mode),
                                  ENUMF(S, RoundingDirection, &axis_direction),
                                  COUNT(S, DimensionCount),
                                  FLOATS(S, Scales, DimensionCount),
                                  FLOATS(S, InputPixelOffsets, DimensionCount),
                                  FLOATS(S, OutputPixelOffsets, DimensionCount),
                                  END};
#undef S
#define S DML_RESAMPLE3_OPERATOR_DESC
static const field resample3[] = {TENSOR(S, InputTensor, IN),
                                  TENSOR(S, OutputTensor, OUT),
                                  ENUMF(S, InterpolationMode, &interpolation_mode),
                                  ENUMF(S, RoundingDirection, &axis_direction),
                                  COUNT(S, DimensionCount),
                                  FLOATS(S, Scales, DimensionCount),
                                  FLOATS(S, InputPixelOffsets, DimensionCount),
                                  FLOATS(S, OutputPixelOffsets, DimensionCount),
                                  UINTF(S, Antialiased),
                                  END};
#undef S
#define S DML_RESAMPLE_GRAD_OPERATOR_DESC
static const field resample_grad[] = {TENSOR(S, InputGradientTensor, IN),
                                      TENSOR(S, OutputGradientTensor, OUT),
                                      ENUMF(S, InterpolationMode, &interpolation_mode),
                                      COUNT(S, DimensionCount),
                                      FLOATS(S, Scales, DimensionCount),
                                      FLOATS(S, InputPixelOffsets, DimensionCount),
                                      FLOATS(S, OutputPixelOffsets, DimensionCount),
                                      END};
#undef S
#define S DML_RESAMPLE_GRAD1_OPERATOR_DESC
static const field resample_grad1[] = {TENSOR(S, InputGradientTensor, IN),
                                       TENSOR(S, OutputGradientTensor, OUT),
                                       ENUMF(S, InterpolationMode, &interpolation_mode),
                                       ENUMF(S, RoundingDirection, &axis_direction),
                                       COUNT(S, DimensionCount),
                                       FLOATS(S, Scales, DimensionCount),
                                       FLOATS(S, InputPixelOffsets, DimensionCount),
                                       FLOATS(S, OutputPixelOffsets, DimensionCount),
                                       END};
#undef S
#define S DML_VALUE_SCALE_2D_OPERATOR_DESC
static const field value_scale_2d[] = {
    TENSOR(S, InputTensor, IN), TENSOR(S, OutputTensor, OUT),  FLOATF(S, Scale),
    COUNT(S, ChannelCount),     FLOATS(S, Bias, ChannelCount), END};
#undef S

#define ROW(op, desc, fields)                          \
    {                                                  \
        DML_OPERATOR_##op, #desc, sizeof(desc), fields \
    }
/* Element-wise operators with the same members share a descriptor layout. */
static const op_row rows[] = {
    ROW(ELEMENT_WISE_IDENTITY, DML_ELEMENT_WISE_IDENTITY_OPERATOR_DESC, unary_sb),
    ROW(ELEMENT_WISE_ABS, DML_ELEMENT_WISE_ABS_OPERATOR_DESC, unary_sb),
    ROW(ELEMENT_WISE_CEIL, DML_ELEMENT_WISE_CEIL_OPERATOR_DESC, unary_sb),
    ROW(ELEMENT_WISE_FLOOR, DML_ELEMENT_WISE_FLOOR_OPERATOR_DESC, unary_sb),
    ROW(ELEMENT_WISE_SQRT, DML_ELEMENT_WISE_SQRT_OPERATOR_DESC, unary_sb),
    ROW(ELEMENT_WISE_RECIP, DML_ELEMENT_WISE_RECIP_OPERATOR_DESC, unary_sb),
    ROW(ELEMENT_WISE_EXP, DML_ELEMENT_WISE_EXP_OPERATOR_DESC, unary_sb),
    ROW(ELEMENT_WISE_LOG, DML_ELEMENT_WISE_LOG_OPERATOR_DESC, unary_sb),
    ROW(ELEMENT_WISE_NEGATE, DML_ELEMENT_WISE_NEGATE_OPERATOR_DESC, unary),
    ROW(ELEMENT_WISE_ADD, DML_ELEMENT_WISE_ADD_OPERATOR_DESC, binary),
    ROW(ELEMENT_WISE_SUBTRACT, DML_ELEMENT_WISE_SUBTRACT_OPERATOR_DESC, binary),
    ROW(ELEMENT_WISE_MULTIPLY, DML_ELEMENT_WISE_MULTIPLY_OPERATOR_DESC, binary),
    ROW(ELEMENT_WISE_DIVIDE, DML_ELEMENT_WISE_DIVIDE_OPERATOR_DESC, binary),
    ROW(ELEMENT_WISE_MAX, DML_ELEMENT_WISE_MAX_OPERATOR_DESC, binary),
    ROW(ELEMENT_WISE_MIN, DML_ELEMENT_WISE_MIN_OPERATOR_DESC, binary),
    ROW(ELEMENT_WISE_MEAN, DML_ELEMENT_WISE_MEAN_OPERATOR_DESC, binary),
    ROW(ELEMENT_WISE_DIFFERENCE_SQUARE, DML_ELEMENT_WISE_DIFFERENCE_SQUARE_OPERATOR_DESC, binary),
    ROW(ELEMENT_WISE_ACOS, DML_ELEMENT_WISE_ACOS_OPERATOR_DESC, unary_sb),
    ROW(ELEMENT_WISE_ACOSH, DML_ELEMENT_WISE_ACOSH_OPERATOR_DESC, unary_sb),
    ROW(ELEMENT_WISE_ASIN, DML_ELEMENT_WISE_ASIN_OPERATOR_DESC, unary_sb),
    ROW(ELEMENT_WISE_ASINH, DML_ELEMENT_WISE_ASINH_OPERATOR_DESC, unary_sb),
    ROW(ELEMENT_WISE_ATAN, DML_ELEMENT_WISE_ATAN_OPERATOR_DESC, unary_sb),
    ROW(ELEMENT_WISE_ATANH, DML_ELEMENT_WISE_ATANH_OPERATOR_DESC, unary_sb),
    ROW(ELEMENT_WISE_COS, DML_ELEMENT_WISE_COS_OPERATOR_DESC, unary_sb),
    ROW(ELEMENT_WISE_COSH, DML_ELEMENT_WISE_COSH_OPERATOR_DESC, unary_sb),
    ROW(ELEMENT_WISE_ERF, DML_ELEMENT_WISE_ERF_OPERATOR_DESC, unary_sb),
    ROW(ELEMENT_WISE_SIN, DML_ELEMENT_WISE_SIN_OPERATOR_DESC, unary_sb),
    ROW(ELEMENT_WISE_SINH, DML_ELEMENT_WISE_SINH_OPERATOR_DESC, unary_sb),
    ROW(ELEMENT_WISE_TAN, DML_ELEMENT_WISE_TAN_OPERATOR_DESC, unary_sb),
    ROW(ELEMENT_WISE_TANH, DML_ELEMENT_WISE_TANH_OPERATOR_DESC, unary_sb),
    ROW(ELEMENT_WISE_ATAN_YX, DML_ELEMENT_WISE_ATAN_YX_OPERATOR_DESC, binary),
    ROW(ELEMENT_WISE_MODULUS_FLOOR, DML_ELEMENT_WISE_MODULUS_FLOOR_OPERATOR_DESC, binary),
    ROW(ELEMENT_WISE_MODULUS_TRUNCATE, DML_ELEMENT_WISE_MODULUS_TRUNCATE_OPERATOR_DESC, binary),
    ROW(ELEMENT_WISE_SIGN, DML_ELEMENT_WISE_SIGN_OPERATOR_DESC, unary),
    ROW(ELEMENT_WISE_CLIP, DML_ELEMENT_WISE_CLIP_OPERATOR_DESC, clip),
    ROW(ELEMENT_WISE_CLIP1, DML_ELEMENT_WISE_CLIP1_OPERATOR_DESC, clip1),
    ROW(ACTIVATION_RELU_GRAD, DML_ACTIVATION_RELU_GRAD_OPERATOR_DESC, relu_grad),
    ROW(ELEMENT_WISE_CLIP_GRAD, DML_ELEMENT_WISE_CLIP_GRAD_OPERATOR_DESC, clip_grad),
    ROW(ELEMENT_WISE_CLIP_GRAD1, DML_ELEMENT_WISE_CLIP_GRAD1_OPERATOR_DESC, clip_grad1),
    ROW(SLICE_GRAD, DML_SLICE_GRAD_OPERATOR_DESC, slice_grad),
    ROW(AVERAGE_POOLING_GRAD, DML_AVERAGE_POOLING_GRAD_OPERATOR_DESC, average_pooling_grad),
    ROW(MAX_POOLING_GRAD, DML_MAX_POOLING_GRAD_OPERATOR_DESC, max_pooling_grad),
    ROW(LOCAL_RESPONSE_NORMALIZATION_GRAD, DML_LOCAL_RESPONSE_NORMALIZATION_GRAD_OPERATOR_DESC,
        lrn_grad),
    ROW(ADAM_OPTIMIZER, DML_ADAM_OPTIMIZER_OPERATOR_DESC, adam),
    ROW(ELEMENT_WISE_CONSTANT_POW, DML_ELEMENT_WISE_CONSTANT_POW_OPERATOR_DESC, constant_pow),
    ROW(ELEMENT_WISE_THRESHOLD, DML_ELEMENT_WISE_THRESHOLD_OPERATOR_DESC, threshold),
    ROW(ELEMENT_WISE_QUANTIZE_LINEAR, DML_ELEMENT_WISE_QUANTIZE_LINEAR_OPERATOR_DESC, quantize),
    ROW(ELEMENT_WISE_DEQUANTIZE_LINEAR, DML_ELEMENT_WISE_DEQUANTIZE_LINEAR_OPERATOR_DESC,
        dequantize),
    /* DEQUANTIZE's descriptor has QUANTIZE's members. */
    ROW(QUANTIZE, DML_QUANTIZE_OPERATOR_DESC, quantize_list),
    ROW(DEQUANTIZE, DML_DEQUANTIZE_OPERATOR_DESC, quantize_list),
    ROW(ELEMENT_WISE_QUANTIZED_LINEAR_ADD, DML_ELEMENT_WISE_QUANTIZED_LINEAR_ADD_OPERATOR_DESC,
        quantized_add),
    ROW(DYNAMIC_QUANTIZE_LINEAR, DML_DYNAMIC_QUANTIZE_LINEAR_OPERATOR_DESC, dynamic_quantize),
    ROW(QUANTIZED_LINEAR_AVERAGE_POOLING, DML_QUANTIZED_LINEAR_AVERAGE_POOLING_OPERATOR_DESC,
        quantized_average_pooling),
    ROW(ELEMENT_WISE_POW, DML_ELEMENT_WISE_POW_OPERATOR_DESC, pow_fields),
    ROW(ELEMENT_WISE_ROUND, DML_ELEMENT_WISE_ROUND_OPERATOR_DESC, round_fields),
    ROW(ELEMENT_WISE_ADD1, DML_ELEMENT_WISE_ADD1_OPERATOR_DESC, add1),
    ROW(ELEMENT_WISE_LOGICAL_AND, DML_ELEMENT_WISE_LOGICAL_AND_OPERATOR_DESC, binary),
    ROW(ELEMENT_WISE_LOGICAL_OR, DML_ELEMENT_WISE_LOGICAL_OR_OPERATOR_DESC, binary),
    ROW(ELEMENT_WISE_LOGICAL_XOR, DML_ELEMENT_WISE_LOGICAL_XOR_OPERATOR_DESC, binary),
    ROW(ELEMENT_WISE_LOGICAL_NOT, DML_ELEMENT_WISE_LOGICAL_NOT_OPERATOR_DESC, unary),
    ROW(ELEMENT_WISE_LOGICAL_EQUALS, DML_ELEMENT_WISE_LOGICAL_EQUALS_OPERATOR_DESC, binary),
    ROW(ELEMENT_WISE_LOGICAL_GREATER_THAN, DML_ELEMENT_WISE_LOGICAL_GREATER_THAN_OPERATOR_DESC,
        binary),
    ROW(ELEMENT_WISE_LOGICAL_GREATER_THAN_OR_EQUAL,
        DML_ELEMENT_WISE_LOGICAL_GREATER_THAN_OR_EQUAL_OPERATOR_DESC, binary),
    ROW(ELEMENT_WISE_LOGICAL_LESS_THAN, DML_ELEMENT_WISE_LOGICAL_LESS_THAN_OPERATOR_DESC, binary),
    ROW(ELEMENT_WISE_LOGICAL_LESS_THAN_OR_EQUAL,
        DML_ELEMENT_WISE_LOGICAL_LESS_THAN_OR_EQUAL_OPERATOR_DESC, binary),
    ROW(ELEMENT_WISE_BIT_AND, DML_ELEMENT_WISE_BIT_AND_OPERATOR_DESC, binary),
    ROW(ELEMENT_WISE_BIT_OR, DML_ELEMENT_WISE_BIT_OR_OPERATOR_DESC, binary),
    ROW(ELEMENT_WISE_BIT_XOR, DML_ELEMENT_WISE_BIT_XOR_OPERATOR_DESC, binary),
    ROW(ELEMENT_WISE_BIT_NOT, DML_ELEMENT_WISE_BIT_NOT_OPERATOR_DESC, unary),
    ROW(ELEMENT_WISE_BIT_COUNT, DML_ELEMENT_WISE_BIT_COUNT_OPERATOR_DESC, unary),
    ROW(ELEMENT_WISE_BIT_SHIFT_LEFT, DML_ELEMENT_WISE_BIT_SHIFT_LEFT_OPERATOR_DESC, binary),
    ROW(ELEMENT_WISE_BIT_SHIFT_RIGHT, DML_ELEMENT_WISE_BIT_SHIFT_RIGHT_OPERATOR_DESC, binary),
    ROW(ELEMENT_WISE_IS_NAN, DML_ELEMENT_WISE_IS_NAN_OPERATOR_DESC, unary),
    ROW(ELEMENT_WISE_IS_INFINITY, DML_ELEMENT_WISE_IS_INFINITY_OPERATOR_DESC, is_infinity),
    ROW(ELEMENT_WISE_IF, DML_ELEMENT_WISE_IF_OPERATOR_DESC, if_fields),
    ROW(CAST, DML_CAST_OPERATOR_DESC, unary),
    ROW(FILL_VALUE_CONSTANT, DML_FILL_VALUE_CONSTANT_OPERATOR_DESC, fill_constant),
    ROW(FILL_VALUE_SEQUENCE, DML_FILL_VALUE_SEQUENCE_OPERATOR_DESC, fill_sequence),
    ROW(ACTIVATION_IDENTITY, DML_ACTIVATION_IDENTITY_OPERATOR_DESC, unary),
    ROW(ACTIVATION_RELU, DML_ACTIVATION_RELU_OPERATOR_DESC, unary),
    ROW(ACTIVATION_SIGMOID, DML_ACTIVATION_SIGMOID_OPERATOR_DESC, unary),
    ROW(ACTIVATION_TANH, DML_ACTIVATION_TANH_OPERATOR_DESC, unary),
    ROW(ACTIVATION_SOFTSIGN, DML_ACTIVATION_SOFTSIGN_OPERATOR_DESC, unary),
    ROW(ACTIVATION_GELU, DML_ACTIVATION_GELU_OPERATOR_DESC, unary),
    ROW(ACTIVATION_ELU, DML_ACTIVATION_ELU_OPERATOR_DESC, act_alpha),
    ROW(ACTIVATION_CELU, DML_ACTIVATION_CELU_OPERATOR_DESC, act_alpha),
    ROW(ACTIVATION_LEAKY_RELU, DML_ACTIVATION_LEAKY_RELU_OPERATOR_DESC, act_alpha),
    ROW(ACTIVATION_THRESHOLDED_RELU, DML_ACTIVATION_THRESHOLDED_RELU_OPERATOR_DESC, act_alpha),
    ROW(ACTIVATION_LINEAR, DML_ACTIVATION_LINEAR_OPERATOR_DESC, act_alpha_beta),
    ROW(ACTIVATION_HARD_SIGMOID, DML_ACTIVATION_HARD_SIGMOID_OPERATOR_DESC, act_alpha_beta),
    ROW(ACTIVATION_HARD_SWISH, DML_ACTIVATION_HARD_SWISH_OPERATOR_DESC, act_alpha_beta),
    ROW(ACTIVATION_PARAMETRIC_SOFTPLUS, DML_ACTIVATION_PARAMETRIC_SOFTPLUS_OPERATOR_DESC,
        act_alpha_beta),
    ROW(ACTIVATION_SCALED_TANH, DML_ACTIVATION_SCALED_TANH_OPERATOR_DESC, act_alpha_beta),
    ROW(ACTIVATION_SCALED_ELU, DML_ACTIVATION_SCALED_ELU_OPERATOR_DESC, act_scaled_elu),
    ROW(ACTIVATION_SHRINK, DML_ACTIVATION_SHRINK_OPERATOR_DESC, act_shrink),
    ROW(ACTIVATION_SOFTPLUS, DML_ACTIVATION_SOFTPLUS_OPERATOR_DESC, act_softplus),
    ROW(ACTIVATION_SWISH, DML_ACTIVATION_SWISH_OPERATOR_DESC, act_swish),
    ROW(ACTIVATION_PARAMETERIZED_RELU, DML_ACTIVATION_PARAMETERIZED_RELU_OPERATOR_DESC, act_prelu),
    ROW(ACTIVATION_SOFTMAX, DML_ACTIVATION_SOFTMAX_OPERATOR_DESC, unary),
    ROW(ACTIVATION_LOG_SOFTMAX, DML_ACTIVATION_LOG_SOFTMAX_OPERATOR_DESC, unary),
    ROW(ACTIVATION_HARDMAX, DML_ACTIVATION_HARDMAX_OPERATOR_DESC, unary),
    ROW(ACTIVATION_SOFTMAX1, DML_ACTIVATION_SOFTMAX1_OPERATOR_DESC, softmax1),
    ROW(ACTIVATION_LOG_SOFTMAX1, DML_ACTIVATION_LOG_SOFTMAX1_OPERATOR_DESC, softmax1),
    ROW(ACTIVATION_HARDMAX1, DML_ACTIVATION_HARDMAX1_OPERATOR_DESC, softmax1),
    ROW(MEAN_VARIANCE_NORMALIZATION, DML_MEAN_VARIANCE_NORMALIZATION_OPERATOR_DESC, mvn0),
    ROW(MEAN_VARIANCE_NORMALIZATION1, DML_MEAN_VARIANCE_NORMALIZATION1_OPERATOR_DESC, mvn1),
    ROW(MEAN_VARIANCE_NORMALIZATION2, DML_MEAN_VARIANCE_NORMALIZATION2_OPERATOR_DESC, mvn2),
    ROW(LP_NORMALIZATION, DML_LP_NORMALIZATION_OPERATOR_DESC, lp_norm),
    ROW(REDUCE, DML_REDUCE_OPERATOR_DESC, reduce),
    ROW(ARGMAX, DML_ARGMAX_OPERATOR_DESC, arg_pick),
    ROW(ARGMIN, DML_ARGMIN_OPERATOR_DESC, arg_pick),
    ROW(BATCH_NORMALIZATION, DML_BATCH_NORMALIZATION_OPERATOR_DESC, batch_norm),
    ROW(BATCH_NORMALIZATION_TRAINING, DML_BATCH_NORMALIZATION_TRAINING_OPERATOR_DESC, bn_training),
    ROW(BATCH_NORMALIZATION_GRAD, DML_BATCH_NORMALIZATION_GRAD_OPERATOR_DESC, bn_grad),
    ROW(BATCH_NORMALIZATION_TRAINING_GRAD, DML_BATCH_NORMALIZATION_TRAINING_GRAD_OPERATOR_DESC,
        bn_grad),
    ROW(CUMULATIVE_SUMMATION, DML_CUMULATIVE_SUMMATION_OPERATOR_DESC, cumsum),
    ROW(CUMULATIVE_PRODUCT, DML_CUMULATIVE_PRODUCT_OPERATOR_DESC, cumprod),
    ROW(TOP_K, DML_TOP_K_OPERATOR_DESC, top_k),
    ROW(RNN, DML_RNN_OPERATOR_DESC, rnn),
    ROW(GRU, DML_GRU_OPERATOR_DESC, gru),
    ROW(LSTM, DML_LSTM_OPERATOR_DESC, lstm),
    ROW(MULTIHEAD_ATTENTION, DML_MULTIHEAD_ATTENTION_OPERATOR_DESC, mha),
    ROW(MULTIHEAD_ATTENTION1, DML_MULTIHEAD_ATTENTION1_OPERATOR_DESC, mha1),
    ROW(TOP_K1, DML_TOP_K1_OPERATOR_DESC, top_k1),
    ROW(LOCAL_RESPONSE_NORMALIZATION, DML_LOCAL_RESPONSE_NORMALIZATION_OPERATOR_DESC, lrn),
    ROW(MAX_POOLING, DML_MAX_POOLING_OPERATOR_DESC, max_pooling),
    ROW(MAX_POOLING1, DML_MAX_POOLING1_OPERATOR_DESC, max_pooling1),
    ROW(MAX_POOLING2, DML_MAX_POOLING2_OPERATOR_DESC, max_pooling2),
    ROW(AVERAGE_POOLING, DML_AVERAGE_POOLING_OPERATOR_DESC, average_pooling),
    ROW(AVERAGE_POOLING1, DML_AVERAGE_POOLING1_OPERATOR_DESC, average_pooling1),
    ROW(LP_POOLING, DML_LP_POOLING_OPERATOR_DESC, lp_pooling),
    ROW(LP_POOLING1, DML_LP_POOLING1_OPERATOR_DESC, lp_pooling1),
    ROW(UPSAMPLE_2D, DML_UPSAMPLE_2D_OPERATOR_DESC, upsample_2d),
    ROW(RESAMPLE, DML_RESAMPLE_OPERATOR_DESC, resample0),
    ROW(RESAMPLE1, DML_RESAMPLE1_OPERATOR_DESC, resample1),
    ROW(RESAMPLE2, DML_RESAMPLE2_OPERATOR_DESC, resample2),
    ROW(RESAMPLE3, DML_RESAMPLE3_OPERATOR_DESC, resample3),
    ROW(RESAMPLE_GRAD, DML_RESAMPLE_GRAD_OPERATOR_DESC, resample_grad),
    ROW(RESAMPLE_GRAD1, DML_RESAMPLE_GRAD1_OPERATOR_DESC, resample_grad1),
    ROW(VALUE_SCALE_2D, DML_VALUE_SCALE_2D_OPERATOR_DESC, value_scale_2d),
    ROW(GEMM, DML_GEMM_OPERATOR_DESC, gemm),
    ROW(CONVOLUTION, DML_CONVOLUTION_OPERATOR_DESC, convolution),
    ROW(MATRIX_MULTIPLY_INTEGER, DML_MATRIX_MULTIPLY_INTEGER_OPERATOR_DESC, matmul_integer),
    ROW(QUANTIZED_LINEAR_MATRIX_MULTIPLY, DML_QUANTIZED_LINEAR_MATRIX_MULTIPLY_OPERATOR_DESC,
        qlinear_matmul),
    ROW(MATRIX_MULTIPLY_INTEGER_TO_FLOAT, DML_MATRIX_MULTIPLY_INTEGER_TO_FLOAT_OPERATOR_DESC,
        matmul_integer_to_float),
    ROW(CONVOLUTION_INTEGER, DML_CONVOLUTION_INTEGER_OPERATOR_DESC, conv_integer),
    ROW(QUANTIZED_LINEAR_CONVOLUTION, DML_QUANTIZED_LINEAR_CONVOLUTION_OPERATOR_DESC, qlinear_conv),
    ROW(GATHER, DML_GATHER_OPERATOR_DESC, gather),
    ROW(GATHER_ELEMENTS, DML_GATHER_ELEMENTS_OPERATOR_DESC, gather_elements),
    ROW(GATHER_ND, DML_GATHER_ND_OPERATOR_DESC, gather_nd),
    ROW(GATHER_ND1, DML_GATHER_ND1_OPERATOR_DESC, gather_nd1),
    ROW(SCATTER_ELEMENTS, DML_SCATTER_ELEMENTS_OPERATOR_DESC, scatter_elements),
    ROW(SCATTER_ND, DML_SCATTER_ND_OPERATOR_DESC, scatter_nd),
    ROW(ONE_HOT, DML_ONE_HOT_OPERATOR_DESC, one_hot),
    ROW(DIAGONAL_MATRIX, DML_DIAGONAL_MATRIX_OPERATOR_DESC, diagonal_matrix),
    ROW(DIAGONAL_MATRIX1, DML_DIAGONAL_MATRIX1_OPERATOR_DESC, diagonal_matrix1),
    ROW(NONZERO_COORDINATES, DML_NONZERO_COORDINATES_OPERATOR_DESC, nonzero_coordinates),
    ROW(REVERSE_SUBSEQUENCES, DML_REVERSE_SUBSEQUENCES_OPERATOR_DESC, reverse_subsequences),
    ROW(MAX_UNPOOLING, DML_MAX_UNPOOLING_OPERATOR_DESC, max_unpooling),
    ROW(RANDOM_GENERATOR, DML_RANDOM_GENERATOR_OPERATOR_DESC, random_generator),
    ROW(ROI_POOLING, DML_ROI_POOLING_OPERATOR_DESC, roi_pooling),
    ROW(ROI_ALIGN, DML_ROI_ALIGN_OPERATOR_DESC, roi_align),
    ROW(ROI_ALIGN1, DML_ROI_ALIGN1_OPERATOR_DESC, roi_align1),
    ROW(ROI_ALIGN_GRAD, DML_ROI_ALIGN_GRAD_OPERATOR_DESC, roi_align_grad),
    ROW(FOLD, DML_FOLD_OPERATOR_DESC, fold),
    ROW(UNFOLD, DML_UNFOLD_OPERATOR_DESC, unfold),
    ROW(SLICE, DML_SLICE_OPERATOR_DESC, slice),
    ROW(SLICE1, DML_SLICE1_OPERATOR_DESC, slice1),
    ROW(TILE, DML_TILE_OPERATOR_DESC, tile),
    ROW(SPACE_TO_DEPTH, DML_SPACE_TO_DEPTH_OPERATOR_DESC, depth_space),
    ROW(DEPTH_TO_SPACE, DML_DEPTH_TO_SPACE_OPERATOR_DESC, depth_space),
    ROW(SPACE_TO_DEPTH1, DML_SPACE_TO_DEPTH1_OPERATOR_DESC, depth_space1),
    ROW(DEPTH_TO_SPACE1, DML_DEPTH_TO_SPACE1_OPERATOR_DESC, depth_space1),
    ROW(JOIN, DML_JOIN_OPERATOR_DESC, join),
    ROW(SPLIT, DML_SPLIT_OPERATOR_DESC, split),
    ROW(PADDING, DML_PADDING_OPERATOR_DESC, padding),
    ROW(PADDING1, DML_PADDING1_OPERATOR_DESC, padding1),
};

/* Every DirectML operator type, for telling a misspelling from an operator dmlcl lacks. */
#define DSP_OPERATOR_TYPE_LIMIT 512

static int operator_type_by_name(const char *bare, DML_OPERATOR_TYPE *out)
{
    if (strcmp(bare, "SCATTER") == 0) { /* SCATTER_ELEMENTS' older name, the same value */
        *out = DML_OPERATOR_SCATTER;
        return 0;
    }
    for (int t = 1; t < DSP_OPERATOR_TYPE_LIMIT; ++t) {
        const char *name = dmli_operator_type_name((DML_OPERATOR_TYPE)t);
        if (name != NULL && strcmp(name, bare) == 0) {
            *out = (DML_OPERATOR_TYPE)t;
            return 0;
        }
    }
    return -1;
}

static void implemented_list(char *buf, size_t n)
{
    size_t len = 0;
    buf[0] = '\0';
    for (size_t i = 0; i < sizeof rows / sizeof rows[0] && len < n; ++i) {
        int w = snprintf(buf + len, n - len, "%s%s", i ? ", " : "",
                         dmli_operator_type_name(rows[i].type));
        len += w > 0 ? (size_t)w : 0;
    }
}

static const op_row *find_row_named(dsp_ctx *c, const char *s)
{
    static const char prefix[] = "DML_OPERATOR_";
    const char *bare = strncmp(s, prefix, sizeof prefix - 1) == 0 ? s + sizeof prefix - 1 : s;
    char list[DSP_MSG_MAX / 2];
    implemented_list(list, sizeof list);
    DML_OPERATOR_TYPE t;
    if (operator_type_by_name(bare, &t) != 0) {
        dsp_fail(c,
                 "\"%.200s\" is not a DirectML operator type (DML_OPERATOR_<NAME> or <NAME>; "
                 "dmlcl-dispatch runs %s)",
                 s, list);
        return NULL;
    }
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; ++i)
        if (rows[i].type == t)
            return &rows[i];
    if (dmli_op_class_find(t) != NULL)
        dsp_fail(c,
                 "DML_OPERATOR_%s: dmlcl implements it, but dmlcl-dispatch cannot read its "
                 "descriptor yet (unsupported)",
                 bare);
    else
        dsp_fail(c,
                 "DML_OPERATOR_%s is a DirectML operator dmlcl does not implement "
                 "(unsupported; dmlcl-dispatch runs %s)",
                 bare, list);
    return NULL;
}

static const op_row *find_row(dsp_ctx *c, const cJSON *type)
{
    const char *s;
    return dsp_get_string(c, type, &s) ? NULL : find_row_named(c, s);
}

int dsp_op_members(dsp_ctx *c, const char *type, const dsp_member **members, unsigned *n)
{
    static const dsp_member_kind kinds[] = {
        [K_TENSOR] = DSP_MEMBER_TENSOR,
        [K_TENSOR_LIST] = DSP_MEMBER_TENSOR_LIST,
        [K_UINT] = DSP_MEMBER_UINT,
        [K_COUNT] = DSP_MEMBER_UINT,
        [K_FLOAT] = DSP_MEMBER_FLOAT,
        [K_UINT_LIST] = DSP_MEMBER_UINT_LIST,
        [K_INT_LIST] = DSP_MEMBER_INT_LIST,
        [K_ENUM] = DSP_MEMBER_ENUM,
        [K_DATA_TYPE] = DSP_MEMBER_DATA_TYPE,
        [K_SCALAR] = DSP_MEMBER_SCALAR,
        [K_SCALE_BIAS] = DSP_MEMBER_SCALE_BIAS,
        [K_FUSED] = DSP_MEMBER_FUSED,
        [K_FLOAT_LIST] = DSP_MEMBER_FLOAT_LIST,
        [K_SIZE_2D] = DSP_MEMBER_SIZE_2D,
        [K_INT] = DSP_MEMBER_INT,
    };
    const op_row *row = find_row_named(c, type);
    if (row == NULL)
        return -1;
    unsigned count = 0;
    while (row->fields[count].name != NULL)
        ++count;
    dsp_member *m = dsp_alloc(c, (count ? count : 1) * sizeof *m);
    if (m == NULL)
        return -1;
    for (unsigned i = 0; i < count; ++i) {
        const field *f = &row->fields[i];
        m[i] = (dsp_member){f->name, kinds[f->kind], (f->role & OUT) != 0,
                            f->kind == K_DATA_TYPE ? &dsp_data_types : f->e,
                            f->kind == K_SCALAR ? f->ref : NULL};
    }
    *members = m;
    *n = count;
    return 0;
}

/* ---- Tensor descs ------------------------------------------------------------------ */

static const dsp_enum_value tensor_types[] = {
    {"INVALID", DML_TENSOR_TYPE_INVALID}, {"BUFFER", DML_TENSOR_TYPE_BUFFER}, {NULL, 0}};
static const dsp_enum tensor_type = {"DML_TENSOR_TYPE", "DML_TENSOR_TYPE_", tensor_types};
static const dsp_enum_value tensor_flags[] = {
    {"NONE", DML_TENSOR_FLAG_NONE}, {"OWNED_BY_DML", DML_TENSOR_FLAG_OWNED_BY_DML}, {NULL, 0}};
static const dsp_enum tensor_flag = {"DML_TENSOR_FLAGS", "DML_TENSOR_FLAG_", tensor_flags};

/* A list of UINT (or INT) members into a fresh array; *count its length. */
static int read_uint_list(dsp_ctx *c, const cJSON *v, int is_signed, void **out, unsigned *count)
{
    if (!cJSON_IsArray(v))
        return dsp_fail(c, "must be a list of integers");
    int n = cJSON_GetArraySize(v);
    uint32_t *vals = dsp_alloc(c, (size_t)n * sizeof *vals);
    if (vals == NULL)
        return -1;
    int i = 0;
    for (const cJSON *x = v->child; x != NULL; x = x->next, ++i) {
        size_t mark = dsp_push_index(c, (size_t)i);
        int rc;
        if (is_signed) {
            int64_t s;
            rc = dsp_get_int(c, x, INT32_MIN, INT32_MAX, &s);
            vals[i] = (uint32_t)(int32_t)s;
        } else {
            uint64_t u;
            rc = dsp_get_uint(c, x, UINT32_MAX, &u);
            vals[i] = (uint32_t)u;
        }
        dsp_pop(c, mark);
        if (rc)
            return -1;
    }
    *out = vals;
    *count = (unsigned)n;
    return 0;
}

static int read_float_list(dsp_ctx *c, const cJSON *v, FLOAT **out, unsigned *count)
{
    if (!cJSON_IsArray(v))
        return dsp_fail(c, "must be a list of numbers");
    int n = cJSON_GetArraySize(v);
    FLOAT *vals = dsp_alloc(c, (size_t)(n ? n : 1) * sizeof *vals);
    if (vals == NULL)
        return -1;
    int i = 0;
    for (const cJSON *x = v->child; x != NULL; x = x->next, ++i) {
        size_t mark = dsp_push_index(c, (size_t)i);
        int rc = dsp_get_float(c, x, &vals[i]);
        dsp_pop(c, mark);
        if (rc)
            return -1;
    }
    *out = vals;
    *count = (unsigned)n;
    return 0;
}

static int read_buffer_desc(dsp_ctx *c, const cJSON *v, DML_BUFFER_TENSOR_DESC *b)
{
    static const char *const keys[] = {"Type",
                                       "DataType",
                                       "Flags",
                                       "DimensionCount",
                                       "Sizes",
                                       "Strides",
                                       "TotalTensorSizeInBytes",
                                       "GuaranteedBaseOffsetAlignment",
                                       NULL};
    if (dsp_check_keys(c, v, keys, "a DML_BUFFER_TENSOR_DESC"))
        return -1;
    const cJSON *dt = cJSON_GetObjectItemCaseSensitive(v, "DataType");
    const cJSON *sizes = cJSON_GetObjectItemCaseSensitive(v, "Sizes");
    if (dt == NULL)
        return dsp_fail(c, "a tensor desc needs DataType");
    if (sizes == NULL)
        return dsp_fail(c, "a tensor desc needs Sizes");
    size_t mark = dsp_push_key(c, "DataType");
    int t;
    int rc = dsp_get_enum(c, dt, &dsp_data_types, &t);
    dsp_pop(c, mark);
    if (rc)
        return -1;
    b->DataType = (DML_TENSOR_DATA_TYPE)t;
    void *list;
    unsigned n;
    mark = dsp_push_key(c, "Sizes");
    rc = read_uint_list(c, sizes, 0, &list, &n);
    dsp_pop(c, mark);
    if (rc)
        return -1;
    b->Sizes = list;
    b->DimensionCount = n;
    uint64_t u;
    const cJSON *x;
    if ((x = cJSON_GetObjectItemCaseSensitive(v, "DimensionCount")) != NULL) {
        mark = dsp_push_key(c, "DimensionCount");
        rc = dsp_get_uint(c, x, UINT32_MAX, &u);
        if (rc == 0 && u != n)
            rc = dsp_fail(c, "%llu, but Sizes has %u entries (they must agree)",
                          (unsigned long long)u, n);
        dsp_pop(c, mark);
        if (rc)
            return -1;
    }
    if ((x = cJSON_GetObjectItemCaseSensitive(v, "Strides")) != NULL && !cJSON_IsNull(x)) {
        unsigned ns;
        mark = dsp_push_key(c, "Strides");
        rc = read_uint_list(c, x, 0, &list, &ns);
        if (rc == 0 && ns != n)
            rc = dsp_fail(c, "has %u entries, but Sizes has %u (they must agree)", ns, n);
        dsp_pop(c, mark);
        if (rc)
            return -1;
        b->Strides = list;
    }
    if ((x = cJSON_GetObjectItemCaseSensitive(v, "Flags")) != NULL) {
        mark = dsp_push_key(c, "Flags");
        rc = dsp_get_flags(c, x, &tensor_flag, &t);
        dsp_pop(c, mark);
        if (rc)
            return -1;
        b->Flags = (DML_TENSOR_FLAGS)t;
    }
    if ((x = cJSON_GetObjectItemCaseSensitive(v, "GuaranteedBaseOffsetAlignment")) != NULL) {
        mark = dsp_push_key(c, "GuaranteedBaseOffsetAlignment");
        rc = dsp_get_uint(c, x, UINT32_MAX, &u);
        dsp_pop(c, mark);
        if (rc)
            return -1;
        b->GuaranteedBaseOffsetAlignment = (UINT)u;
    }
    u = 0;
    if ((x = cJSON_GetObjectItemCaseSensitive(v, "TotalTensorSizeInBytes")) != NULL) {
        mark = dsp_push_key(c, "TotalTensorSizeInBytes");
        rc = dsp_get_uint(c, x, UINT64_MAX, &u);
        dsp_pop(c, mark);
        if (rc)
            return -1;
    }
    /* DxDispatch's default, also for 0: the packed size DirectML computes. */
    b->TotalTensorSizeInBytes =
        u ? u : DMLCalcBufferTensorSize(b->DataType, b->DimensionCount, b->Sizes, b->Strides);
    return 0;
}

/* {"DataType", "Sizes", ...} or {"Type": "BUFFER", "Desc": {...}}. */
static int read_tensor(dsp_ctx *c, const cJSON *v, DML_TENSOR_DESC *out)
{
    if (!cJSON_IsObject(v))
        return dsp_fail(c,
                        "a tensor desc must be an object ({\"DataType\": ..., \"Sizes\": [...]})");
    int t = DML_TENSOR_TYPE_BUFFER;
    const cJSON *type = cJSON_GetObjectItemCaseSensitive(v, "Type");
    if (type != NULL) {
        size_t mark = dsp_push_key(c, "Type");
        int rc = dsp_get_enum(c, type, &tensor_type, &t);
        if (rc == 0 && t != DML_TENSOR_TYPE_BUFFER)
            rc = dsp_fail(c, "only DML_TENSOR_TYPE_BUFFER tensors exist");
        dsp_pop(c, mark);
        if (rc)
            return -1;
    }
    DML_BUFFER_TENSOR_DESC *b = dsp_alloc(c, sizeof *b);
    if (b == NULL)
        return -1;
    const cJSON *desc = cJSON_GetObjectItemCaseSensitive(v, "Desc");
    if (desc != NULL) {
        static const char *const keys[] = {"Type", "Desc", NULL};
        if (dsp_check_keys(c, v, keys, "a DML_TENSOR_DESC with Desc"))
            return -1;
        size_t mark = dsp_push_key(c, "Desc");
        int rc = cJSON_IsObject(desc) ? read_buffer_desc(c, desc, b)
                                      : dsp_fail(c, "must be a DML_BUFFER_TENSOR_DESC object");
        dsp_pop(c, mark);
        if (rc)
            return -1;
    } else if (read_buffer_desc(c, v, b)) {
        return -1;
    }
    out->Type = DML_TENSOR_TYPE_BUFFER;
    out->Desc = b;
    return 0;
}

/* ---- Members ------------------------------------------------------------------------ */

static const field *field_named(const field *fields, const char *name)
{
    for (const field *f = fields; f->name != NULL; ++f)
        if (strcmp(f->name, name) == 0)
            return f;
    return NULL;
}

/* A count member left out: the length of the first list it counts that the desc gives. */
static int infer_count(dsp_ctx *c, const field *fields, const field *count, const cJSON *desc,
                       UINT *out)
{
    for (const field *f = fields; f->name != NULL; ++f) {
        if (f->ref == NULL || strcmp(f->ref, count->name) != 0 || f->kind == K_SCALAR)
            continue;
        const cJSON *list = cJSON_GetObjectItemCaseSensitive(desc, f->name);
        if (list != NULL && cJSON_IsArray(list)) {
            *out = (UINT)cJSON_GetArraySize(list);
            return 0;
        }
    }
    return dsp_fail_at(c, count->name, "required: the desc gives neither %s nor a list it counts",
                       count->name);
}

static int read_scalar(dsp_ctx *c, const cJSON *v, DML_TENSOR_DATA_TYPE type, DML_SCALAR_UNION *out)
{
    static const char *const members[] = {
        [DML_TENSOR_DATA_TYPE_FLOAT32] = "Float32", [DML_TENSOR_DATA_TYPE_FLOAT16] = "UInt16",
        [DML_TENSOR_DATA_TYPE_UINT32] = "UInt32",   [DML_TENSOR_DATA_TYPE_UINT16] = "UInt16",
        [DML_TENSOR_DATA_TYPE_UINT8] = "UInt8",     [DML_TENSOR_DATA_TYPE_INT32] = "Int32",
        [DML_TENSOR_DATA_TYPE_INT16] = "Int16",     [DML_TENSOR_DATA_TYPE_INT8] = "Int8",
        [DML_TENSOR_DATA_TYPE_FLOAT64] = "Float64", [DML_TENSOR_DATA_TYPE_UINT64] = "UInt64",
        [DML_TENSOR_DATA_TYPE_INT64] = "Int64",
    };
    const rt_type *t = dsp_type_of(type);
    if (t == NULL || (unsigned)type >= sizeof members / sizeof members[0])
        return dsp_fail(c, "no DML_SCALAR_UNION member holds the data type given");
    char why[RT_WHY_MAX];
    memset(out, 0, sizeof *out);
    if (cJSON_IsObject(v)) {
        /* {"Float32": 1.5}: the union member of the type (FLOAT16: its bits, as UInt16). */
        const char *key = members[type];
        if (cJSON_GetArraySize(v) != 1 || cJSON_GetObjectItemCaseSensitive(v, key) == NULL)
            return dsp_fail(c, "a DML_SCALAR_UNION object of a %s value has one member, %s",
                            t->name, key);
        v = cJSON_GetObjectItemCaseSensitive(v, key);
        if (type == DML_TENSOR_DATA_TYPE_FLOAT16)
            t = rt_type_by_name("UINT16");
    }
    if (rt_value_parse(t, v, out->Bytes, why, sizeof why) != 0)
        return dsp_fail(c, "%s", why);
    return 0;
}

static int read_scale_bias(dsp_ctx *c, const cJSON *v, const DML_SCALE_BIAS **out)
{
    static const char *const keys[] = {"Scale", "Bias", NULL};
    if (!cJSON_IsObject(v))
        return dsp_fail(c, "must be {\"Scale\": s, \"Bias\": b}");
    if (dsp_check_keys(c, v, keys, "DML_SCALE_BIAS"))
        return -1;
    DML_SCALE_BIAS *sb = dsp_alloc(c, sizeof *sb);
    if (sb == NULL)
        return -1;
    for (int i = 0; i < 2; ++i) {
        const cJSON *x = cJSON_GetObjectItemCaseSensitive(v, keys[i]);
        if (x == NULL)
            return dsp_fail(c, "DML_SCALE_BIAS needs %s", keys[i]);
        size_t mark = dsp_push_key(c, keys[i]);
        int rc = dsp_get_float(c, x, i == 0 ? &sb->Scale : &sb->Bias);
        dsp_pop(c, mark);
        if (rc)
            return -1;
    }
    *out = sb;
    return 0;
}

/* The UINT already read for member name (a count or a data type). */
static UINT member_uint(const unsigned char *desc, const field *fields, const char *name)
{
    UINT v;
    memcpy(&v, desc + field_named(fields, name)->offset, sizeof v);
    return v;
}

static int read_tensor_list(dsp_ctx *c, const cJSON *v, UINT count, const DML_TENSOR_DESC **out)
{
    if (!cJSON_IsArray(v))
        return dsp_fail(c, "must be a list of tensor descs");
    if ((UINT)cJSON_GetArraySize(v) != count)
        return dsp_fail(c, "has %d tensor descs, but the count is %u (they must agree)",
                        cJSON_GetArraySize(v), count);
    DML_TENSOR_DESC *list = dsp_alloc(c, (size_t)count * sizeof *list);
    if (list == NULL)
        return -1;
    UINT i = 0;
    for (const cJSON *x = v->child; x != NULL; x = x->next, ++i) {
        size_t mark = dsp_push_index(c, i);
        int rc = read_tensor(c, x, &list[i]);
        dsp_pop(c, mark);
        if (rc)
            return -1;
    }
    *out = list;
    return 0;
}

static int read_member(dsp_ctx *c, const op_row *row, const field *f, const cJSON *v,
                       unsigned char *desc);

/*
 * A fused activation, as DxDispatch writes it: {"Type": "ACTIVATION_ELU", "Alpha": 0.5}, the
 * activation's members but its tensors (NULL in a fused description), or null (none).
 */
static int read_fused(dsp_ctx *c, const cJSON *v, const DML_OPERATOR_DESC **out)
{
    *out = NULL;
    if (cJSON_IsNull(v))
        return 0;
    if (!cJSON_IsObject(v))
        return dsp_fail(c, "must be null or {\"Type\": \"ACTIVATION_<NAME>\", members...}");
    const cJSON *type = cJSON_GetObjectItemCaseSensitive(v, "Type");
    if (type == NULL)
        return dsp_fail(c, "a fused activation needs Type (an ACTIVATION_* operator type)");
    size_t mark = dsp_push_key(c, "Type");
    const op_row *row = find_row(c, type);
    if (row != NULL && strncmp(dmli_operator_type_name(row->type), "ACTIVATION_", 11) != 0) {
        dsp_fail(c, "%s is not an activation (a fused activation is an ACTIVATION_* type)",
                 dmli_operator_type_name(row->type));
        row = NULL;
    }
    dsp_pop(c, mark);
    if (row == NULL)
        return -1;
    const char *names[16];
    size_t n = 0;
    names[n++] = "Type";
    for (const field *f = row->fields; f->name != NULL && n + 1 < 16; ++f)
        if (f->kind != K_TENSOR && f->kind != K_TENSOR_LIST)
            names[n++] = f->name;
    names[n] = NULL;
    if (dsp_check_keys(c, v, names, "a fused activation (its tensors are NULL)"))
        return -1;
    unsigned char *bytes = dsp_alloc(c, row->size);
    DML_OPERATOR_DESC *op = dsp_alloc(c, sizeof *op);
    if (bytes == NULL || op == NULL)
        return -1;
    for (const field *f = row->fields; f->name != NULL; ++f) {
        if (f->kind == K_TENSOR || f->kind == K_TENSOR_LIST)
            continue;
        const cJSON *x = cJSON_GetObjectItemCaseSensitive(v, f->name);
        if (x == NULL)
            return dsp_fail_at(c, f->name, "required member of %s", row->desc_name);
        size_t m = dsp_push_key(c, f->name);
        int rc = read_member(c, row, f, x, bytes);
        dsp_pop(c, m);
        if (rc)
            return -1;
    }
    op->Type = row->type;
    op->Desc = bytes;
    *out = op;
    return 0;
}

static int read_member(dsp_ctx *c, const op_row *row, const field *f, const cJSON *v,
                       unsigned char *desc)
{
    unsigned char *at = desc + f->offset;
    uint64_t u;
    int e;
    switch (f->kind) {
    case K_TENSOR: {
        DML_TENSOR_DESC *t = dsp_alloc(c, sizeof *t);
        if (t == NULL || read_tensor(c, v, t))
            return -1;
        memcpy(at, &t, sizeof t);
        return 0;
    }
    case K_TENSOR_LIST: {
        const DML_TENSOR_DESC *list = NULL;
        if (read_tensor_list(c, v, member_uint(desc, row->fields, f->ref), &list))
            return -1;
        memcpy(at, &list, sizeof list);
        return 0;
    }
    case K_UINT:
    case K_COUNT: {
        if (dsp_get_uint(c, v, UINT32_MAX, &u))
            return -1;
        UINT x = (UINT)u;
        memcpy(at, &x, sizeof x);
        return 0;
    }
    case K_FLOAT: return dsp_get_float(c, v, (FLOAT *)(void *)at);
    case K_INT: {
        int64_t i;
        if (dsp_get_int(c, v, INT32_MIN, INT32_MAX, &i))
            return -1;
        INT x = (INT)i;
        memcpy(at, &x, sizeof x);
        return 0;
    }
    case K_UINT_LIST:
    case K_INT_LIST: {
        void *list;
        unsigned n;
        UINT count = member_uint(desc, row->fields, f->ref);
        if (read_uint_list(c, v, f->kind == K_INT_LIST, &list, &n))
            return -1;
        if (n != count)
            return dsp_fail(c, "has %u entries, but %s is %u (they must agree)", n, f->ref, count);
        memcpy(at, &list, sizeof list);
        return 0;
    }
    case K_FLOAT_LIST: {
        FLOAT *list = NULL;
        unsigned n = 0;
        UINT count = member_uint(desc, row->fields, f->ref);
        if (read_float_list(c, v, &list, &n))
            return -1;
        if (n != count)
            return dsp_fail(c, "has %u entries, but %s is %u (they must agree)", n, f->ref, count);
        memcpy(at, &list, sizeof list);
        return 0;
    }
    case K_SIZE_2D: {
        static const char *const keys[] = {"Width", "Height", NULL};
        uint64_t w, h;
        if (!cJSON_IsObject(v))
            return dsp_fail(c, "must be {\"Width\": w, \"Height\": h}");
        if (dsp_check_keys(c, v, keys, "DML_SIZE_2D") ||
            dsp_get_uint(c, cJSON_GetObjectItemCaseSensitive(v, "Width"), UINT32_MAX, &w) ||
            dsp_get_uint(c, cJSON_GetObjectItemCaseSensitive(v, "Height"), UINT32_MAX, &h))
            return -1;
        DML_SIZE_2D size = {(UINT)w, (UINT)h};
        memcpy(at, &size, sizeof size);
        return 0;
    }
    case K_ENUM:
        if (dsp_get_enum(c, v, f->e, &e))
            return -1;
        memcpy(at, &e, sizeof e);
        return 0;
    case K_DATA_TYPE:
        if (dsp_get_enum(c, v, &dsp_data_types, &e))
            return -1;
        memcpy(at, &e, sizeof e);
        return 0;
    case K_SCALAR: {
        DML_SCALAR_UNION s;
        if (read_scalar(c, v, (DML_TENSOR_DATA_TYPE)member_uint(desc, row->fields, f->ref), &s))
            return -1;
        memcpy(at, &s, sizeof s);
        return 0;
    }
    case K_SCALE_BIAS: {
        const DML_SCALE_BIAS *sb = NULL;
        if (read_scale_bias(c, v, &sb))
            return -1;
        memcpy(at, &sb, sizeof sb);
        return 0;
    }
    case K_FUSED: {
        const DML_OPERATOR_DESC *op = NULL;
        if (read_fused(c, v, &op))
            return -1;
        memcpy(at, &op, sizeof op);
        return 0;
    }
    case K_FUSED_LIST: {
        /* An array of activations (RNN's, GRU's and LSTM's ActivationDescs), each as a fused
         * one, copied into one DML_OPERATOR_DESC array. */
        UINT count = member_uint(desc, row->fields, f->ref);
        if (!cJSON_IsArray(v))
            return dsp_fail(c, "must be an array of {\"Type\": \"ACTIVATION_<NAME>\", members...}");
        int n = cJSON_GetArraySize(v);
        if ((UINT)n != count)
            return dsp_fail(c, "has %d entries, but %s is %u (they must agree)", n, f->ref, count);
        DML_OPERATOR_DESC *list = dsp_alloc(c, sizeof *list * (size_t)(n ? n : 1));
        if (list == NULL)
            return -1;
        for (int i = 0; i < n; ++i) {
            const DML_OPERATOR_DESC *op = NULL;
            char key[16];
            snprintf(key, sizeof key, "%d", i);
            size_t mark = dsp_push_key(c, key);
            int rc = read_fused(c, cJSON_GetArrayItem(v, i), &op);
            dsp_pop(c, mark);
            if (rc)
                return -1;
            if (op == NULL)
                return dsp_fail(c, "entry %d is null (every activation is required)", i);
            list[i] = *op;
        }
        const DML_OPERATOR_DESC *p = list;
        memcpy(at, &p, sizeof p);
        return 0;
    }
    }
    return dsp_fail(c, "internal: member kind %d", (int)f->kind);
}

/* Bind points and slots: the tensor members, inputs then outputs, in member order. */
static int describe_slots(dsp_ctx *c, const op_row *row, const unsigned char *desc,
                          dsp_dispatchable *d)
{
    unsigned slots = 0, members = 0;
    for (const field *f = row->fields; f->name != NULL; ++f)
        members += f->kind == K_TENSOR || f->kind == K_TENSOR_LIST;
    if ((d->points = dsp_alloc(c, (members ? members : 1) * sizeof *d->points)) == NULL)
        return -1;
    for (int pass = IN; pass <= OUT; ++pass)
        for (const field *f = row->fields; f->name != NULL; ++f) {
            if ((f->kind != K_TENSOR && f->kind != K_TENSOR_LIST) || (f->role & (IN | OUT)) != pass)
                continue;
            dsp_bind_point *p = &d->points[d->n_points++];
            p->name = f->name;
            p->output = pass == OUT;
            p->first = slots;
            p->count = f->kind == K_TENSOR ? 1 : member_uint(desc, row->fields, f->ref);
            slots += p->count;
            *(pass == IN ? &d->n_inputs : &d->n_outputs) += p->count;
        }
    d->slot_tensors = dsp_alloc(c, (size_t)(slots ? slots : 1) * sizeof *d->slot_tensors);
    if (d->slot_tensors == NULL)
        return -1;
    for (unsigned i = 0; i < d->n_points; ++i) {
        const dsp_bind_point *p = &d->points[i];
        const DML_TENSOR_DESC *t;
        memcpy(&t, desc + field_named(row->fields, p->name)->offset, sizeof t);
        for (unsigned k = 0; k < p->count; ++k) /* an optional tensor left out: NULL */
            d->slot_tensors[p->first + k] = t != NULL ? t + k : NULL;
    }
    return 0;
}

int dsp_op_parse(dsp_ctx *c, const cJSON *type, const cJSON *desc, dsp_dispatchable *d)
{
    size_t mark = dsp_push_key(c, "type");
    const op_row *row = find_row(c, type);
    dsp_pop(c, mark);
    if (row == NULL)
        return -1;
    d->op_name = dmli_operator_type_name(row->type);
    if (desc == NULL)
        return dsp_fail(c, "a DirectML operator dispatchable needs desc (its %s)", row->desc_name);
    const char *key = desc->string;
    mark = dsp_push_key(c, key);
    int rc = -1;
    unsigned char *bytes = dsp_alloc(c, row->size);
    const char *names[32];
    size_t n = 0;
    for (const field *f = row->fields; f->name != NULL && n + 1 < sizeof names / sizeof names[0];
         ++f)
        names[n++] = f->name;
    names[n] = NULL;
    if (bytes == NULL)
        goto done;
    if (!cJSON_IsObject(desc)) {
        dsp_fail(c, "must be an object: the members of %s", row->desc_name);
        goto done;
    }
    if (dsp_check_keys(c, desc, names, row->desc_name))
        goto done;
    for (const field *f = row->fields; f->name != NULL; ++f) {
        const cJSON *v = cJSON_GetObjectItemCaseSensitive(desc, f->name);
        if (cJSON_IsNull(v) && f->kind == K_TENSOR && (f->role & OPTIONAL))
            v = NULL; /* an optional tensor given as null: absent */
        if (v == NULL) {
            if (f->kind == K_SCALE_BIAS || f->kind == K_FUSED ||
                (f->kind == K_TENSOR && (f->role & OPTIONAL)))
                continue; /* optional pointers: NULL (an absent tensor's slot binds nothing) */
            if (f->kind == K_COUNT) {
                UINT count = 0;
                if (infer_count(c, row->fields, f, desc, &count))
                    goto done;
                memcpy(bytes + f->offset, &count, sizeof count);
                continue;
            }
            dsp_fail_at(c, f->name, "required member of %s", row->desc_name);
            goto done;
        }
        size_t m = dsp_push_key(c, f->name);
        int r = read_member(c, row, f, v, bytes);
        dsp_pop(c, m);
        if (r)
            goto done;
    }
    d->desc.Type = row->type;
    d->desc.Desc = bytes;
    rc = describe_slots(c, row, bytes, d);
done:
    dsp_pop(c, mark);
    return rc;
}
