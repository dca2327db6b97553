/* SPDX-License-Identifier: MIT */
/*
 * fuzz_operators: bytes -> one DML_OPERATOR_DESC of any type dmlcl
 * implements (a schema per type: its tensors, scalars and lists), created
 * with a NULL device. Whatever the descriptor, creation returns (no crash, no
 * undefined behaviour under the sanitizers), and an accepted descriptor's
 * plan stays inside its tensors (fuzz_check_plan).
 */
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "bytes.h"
#include "drivers.h"
#include "internal.h"

#define MAX_TENSORS 3
#define MAX_LIST_TENSORS 6 /* JOIN's InputTensors, SPLIT's OutputTensors */
#define MAX_DIMS 17        /* one past dmlcl's 16: rank checks get exercised */
#define MAX_LIST 40        /* entries per list: past the 33 a strided slice can use */
#define MAX_LISTS 8

/* SCALAR: a DML_SCALAR_UNION member; VALUE: a pointer to one element of the first tensor's type.
 * A FLOAT member is a U32 (its bits: NaN, infinities and all). */
typedef enum kind {
    TENSOR,
    U32,
    LIST_U32,
    LIST_I32,
    LIST_I64,
    SCALE_BIAS,
    TENSOR_LIST,
    SCALAR,
    VALUE,
    FUSED, /* a `const DML_OPERATOR_DESC *FusedActivation` (activations: fused_types) */
    END
} kind;

typedef struct field {
    kind k;
    size_t at;    /* offsetof the member */
    size_t count; /* LIST_*, TENSOR_LIST: offsetof the UINT that counts it */
} field;

typedef struct schema {
    DML_OPERATOR_TYPE type;
    field f[16];
} schema;

#define T(s, m)                   \
    {                             \
        TENSOR, offsetof(s, m), 0 \
    }
#define U(s, m)                \
    {                          \
        U32, offsetof(s, m), 0 \
    }
#define LIST(k, s, m, n)                  \
    {                                     \
        k, offsetof(s, m), offsetof(s, n) \
    }
#define SCAL(k, s, m)        \
    {                        \
        k, offsetof(s, m), 0 \
    }
#define TLIST(s, m, n)                              \
    {                                               \
        TENSOR_LIST, offsetof(s, m), offsetof(s, n) \
    }
#define E         \
    {             \
        END, 0, 0 \
    }

static const schema schemas[] = {
    {DML_OPERATOR_ELEMENT_WISE_IDENTITY,
     {T(DML_ELEMENT_WISE_IDENTITY_OPERATOR_DESC, InputTensor),
      T(DML_ELEMENT_WISE_IDENTITY_OPERATOR_DESC, OutputTensor),
      {SCALE_BIAS, offsetof(DML_ELEMENT_WISE_IDENTITY_OPERATOR_DESC, ScaleBias), 0},
      E}},
    {DML_OPERATOR_SLICE,
     {T(DML_SLICE_OPERATOR_DESC, InputTensor), T(DML_SLICE_OPERATOR_DESC, OutputTensor),
      U(DML_SLICE_OPERATOR_DESC, DimensionCount),
      LIST(LIST_U32, DML_SLICE_OPERATOR_DESC, Offsets, DimensionCount),
      LIST(LIST_U32, DML_SLICE_OPERATOR_DESC, Sizes, DimensionCount),
      LIST(LIST_U32, DML_SLICE_OPERATOR_DESC, Strides, DimensionCount), E}},
    {DML_OPERATOR_SLICE1,
     {T(DML_SLICE1_OPERATOR_DESC, InputTensor), T(DML_SLICE1_OPERATOR_DESC, OutputTensor),
      U(DML_SLICE1_OPERATOR_DESC, DimensionCount),
      LIST(LIST_U32, DML_SLICE1_OPERATOR_DESC, InputWindowOffsets, DimensionCount),
      LIST(LIST_U32, DML_SLICE1_OPERATOR_DESC, InputWindowSizes, DimensionCount),
      LIST(LIST_I32, DML_SLICE1_OPERATOR_DESC, InputWindowStrides, DimensionCount), E}},
    {DML_OPERATOR_GATHER,
     {T(DML_GATHER_OPERATOR_DESC, InputTensor), T(DML_GATHER_OPERATOR_DESC, IndicesTensor),
      T(DML_GATHER_OPERATOR_DESC, OutputTensor), U(DML_GATHER_OPERATOR_DESC, Axis),
      U(DML_GATHER_OPERATOR_DESC, IndexDimensions), E}},
    {DML_OPERATOR_GATHER_ELEMENTS,
     {T(DML_GATHER_ELEMENTS_OPERATOR_DESC, InputTensor),
      T(DML_GATHER_ELEMENTS_OPERATOR_DESC, IndicesTensor),
      T(DML_GATHER_ELEMENTS_OPERATOR_DESC, OutputTensor),
      U(DML_GATHER_ELEMENTS_OPERATOR_DESC, Axis), E}},
    {DML_OPERATOR_GATHER_ND,
     {T(DML_GATHER_ND_OPERATOR_DESC, InputTensor), T(DML_GATHER_ND_OPERATOR_DESC, IndicesTensor),
      T(DML_GATHER_ND_OPERATOR_DESC, OutputTensor),
      U(DML_GATHER_ND_OPERATOR_DESC, InputDimensionCount),
      U(DML_GATHER_ND_OPERATOR_DESC, IndicesDimensionCount), E}},
    {DML_OPERATOR_GATHER_ND1,
     {T(DML_GATHER_ND1_OPERATOR_DESC, InputTensor), T(DML_GATHER_ND1_OPERATOR_DESC, IndicesTensor),
      T(DML_GATHER_ND1_OPERATOR_DESC, OutputTensor),
      U(DML_GATHER_ND1_OPERATOR_DESC, InputDimensionCount),
      U(DML_GATHER_ND1_OPERATOR_DESC, IndicesDimensionCount),
      U(DML_GATHER_ND1_OPERATOR_DESC, BatchDimensionCount), E}},
    {DMLCL_OPERATOR_GATHER1,
     {T(DMLCL_GATHER1_OPERATOR_DESC, InputTensor), T(DMLCL_GATHER1_OPERATOR_DESC, IndicesTensor),
      T(DMLCL_GATHER1_OPERATOR_DESC, OutputTensor), U(DMLCL_GATHER1_OPERATOR_DESC, Axis),
      U(DMLCL_GATHER1_OPERATOR_DESC, IndexDimensions),
      U(DMLCL_GATHER1_OPERATOR_DESC, BatchDimensionCount),
      U(DMLCL_GATHER1_OPERATOR_DESC, OutOfRangePolicy),
      U(DMLCL_GATHER1_OPERATOR_DESC, AllowNegativeIndices), E}},
    {DMLCL_OPERATOR_GATHER_ELEMENTS1,
     {T(DMLCL_GATHER_ELEMENTS1_OPERATOR_DESC, InputTensor),
      T(DMLCL_GATHER_ELEMENTS1_OPERATOR_DESC, IndicesTensor),
      T(DMLCL_GATHER_ELEMENTS1_OPERATOR_DESC, OutputTensor),
      U(DMLCL_GATHER_ELEMENTS1_OPERATOR_DESC, Axis),
      U(DMLCL_GATHER_ELEMENTS1_OPERATOR_DESC, OutOfRangePolicy), E}},
    {DMLCL_OPERATOR_GATHER_ND2,
     {T(DMLCL_GATHER_ND2_OPERATOR_DESC, InputTensor),
      T(DMLCL_GATHER_ND2_OPERATOR_DESC, IndicesTensor),
      T(DMLCL_GATHER_ND2_OPERATOR_DESC, OutputTensor),
      U(DMLCL_GATHER_ND2_OPERATOR_DESC, InputDimensionCount),
      U(DMLCL_GATHER_ND2_OPERATOR_DESC, IndicesDimensionCount),
      U(DMLCL_GATHER_ND2_OPERATOR_DESC, BatchDimensionCount),
      U(DMLCL_GATHER_ND2_OPERATOR_DESC, OutOfRangePolicy), E}},
    {DMLCL_OPERATOR_BROADCAST,
     {T(DMLCL_BROADCAST_OPERATOR_DESC, InputTensor), T(DMLCL_BROADCAST_OPERATOR_DESC, OutputTensor),
      U(DMLCL_BROADCAST_OPERATOR_DESC, Mode), U(DMLCL_BROADCAST_OPERATOR_DESC, AxesMappingCount),
      LIST(LIST_U32, DMLCL_BROADCAST_OPERATOR_DESC, AxesMapping, AxesMappingCount), E}},
    {DML_OPERATOR_SPACE_TO_DEPTH,
     {T(DML_SPACE_TO_DEPTH_OPERATOR_DESC, InputTensor),
      T(DML_SPACE_TO_DEPTH_OPERATOR_DESC, OutputTensor),
      U(DML_SPACE_TO_DEPTH_OPERATOR_DESC, BlockSize), E}},
    {DML_OPERATOR_DEPTH_TO_SPACE,
     {T(DML_DEPTH_TO_SPACE_OPERATOR_DESC, InputTensor),
      T(DML_DEPTH_TO_SPACE_OPERATOR_DESC, OutputTensor),
      U(DML_DEPTH_TO_SPACE_OPERATOR_DESC, BlockSize), E}},
    {DML_OPERATOR_SPACE_TO_DEPTH1,
     {T(DML_SPACE_TO_DEPTH1_OPERATOR_DESC, InputTensor),
      T(DML_SPACE_TO_DEPTH1_OPERATOR_DESC, OutputTensor),
      U(DML_SPACE_TO_DEPTH1_OPERATOR_DESC, BlockSize), U(DML_SPACE_TO_DEPTH1_OPERATOR_DESC, Order),
      E}},
    {DML_OPERATOR_DEPTH_TO_SPACE1,
     {T(DML_DEPTH_TO_SPACE1_OPERATOR_DESC, InputTensor),
      T(DML_DEPTH_TO_SPACE1_OPERATOR_DESC, OutputTensor),
      U(DML_DEPTH_TO_SPACE1_OPERATOR_DESC, BlockSize), U(DML_DEPTH_TO_SPACE1_OPERATOR_DESC, Order),
      E}},
    {DML_OPERATOR_PADDING,
     {T(DML_PADDING_OPERATOR_DESC, InputTensor), T(DML_PADDING_OPERATOR_DESC, OutputTensor),
      U(DML_PADDING_OPERATOR_DESC, PaddingMode), U(DML_PADDING_OPERATOR_DESC, DimensionCount),
      LIST(LIST_U32, DML_PADDING_OPERATOR_DESC, StartPadding, DimensionCount),
      LIST(LIST_U32, DML_PADDING_OPERATOR_DESC, EndPadding, DimensionCount), E}},
    {DML_OPERATOR_PADDING1,
     {T(DML_PADDING1_OPERATOR_DESC, InputTensor), T(DML_PADDING1_OPERATOR_DESC, OutputTensor),
      U(DML_PADDING1_OPERATOR_DESC, PaddingMode),
      U(DML_PADDING1_OPERATOR_DESC, PaddingValueDataType),
      SCAL(SCALAR, DML_PADDING1_OPERATOR_DESC, PaddingValue),
      U(DML_PADDING1_OPERATOR_DESC, DimensionCount),
      LIST(LIST_U32, DML_PADDING1_OPERATOR_DESC, StartPadding, DimensionCount),
      LIST(LIST_U32, DML_PADDING1_OPERATOR_DESC, EndPadding, DimensionCount), E}},
    {DMLCL_OPERATOR_PAD,
     {T(DMLCL_PAD_OPERATOR_DESC, InputTensor), T(DMLCL_PAD_OPERATOR_DESC, OutputTensor),
      U(DMLCL_PAD_OPERATOR_DESC, PaddingMode), SCAL(VALUE, DMLCL_PAD_OPERATOR_DESC, PaddingValue),
      U(DMLCL_PAD_OPERATOR_DESC, DimensionCount),
      LIST(LIST_I64, DMLCL_PAD_OPERATOR_DESC, StartPadding, DimensionCount),
      LIST(LIST_I64, DMLCL_PAD_OPERATOR_DESC, EndPadding, DimensionCount),
      U(DMLCL_PAD_OPERATOR_DESC, Flags), E}},
    {DMLCL_OPERATOR_ROLL,
     {T(DMLCL_ROLL_OPERATOR_DESC, InputTensor), T(DMLCL_ROLL_OPERATOR_DESC, OutputTensor),
      U(DMLCL_ROLL_OPERATOR_DESC, DimensionCount),
      LIST(LIST_I64, DMLCL_ROLL_OPERATOR_DESC, Shifts, DimensionCount), E}},
    {DMLCL_OPERATOR_STRIDED_SLICE,
     {T(DMLCL_STRIDED_SLICE_OPERATOR_DESC, InputTensor),
      T(DMLCL_STRIDED_SLICE_OPERATOR_DESC, OutputTensor),
      U(DMLCL_STRIDED_SLICE_OPERATOR_DESC, SliceCount),
      LIST(LIST_I64, DMLCL_STRIDED_SLICE_OPERATOR_DESC, Begin, SliceCount),
      LIST(LIST_I64, DMLCL_STRIDED_SLICE_OPERATOR_DESC, End, SliceCount),
      LIST(LIST_I64, DMLCL_STRIDED_SLICE_OPERATOR_DESC, Strides, SliceCount),
      LIST(LIST_U32, DMLCL_STRIDED_SLICE_OPERATOR_DESC, BeginMask, SliceCount),
      LIST(LIST_U32, DMLCL_STRIDED_SLICE_OPERATOR_DESC, EndMask, SliceCount),
      LIST(LIST_U32, DMLCL_STRIDED_SLICE_OPERATOR_DESC, NewAxisMask, SliceCount),
      LIST(LIST_U32, DMLCL_STRIDED_SLICE_OPERATOR_DESC, ShrinkAxisMask, SliceCount),
      LIST(LIST_U32, DMLCL_STRIDED_SLICE_OPERATOR_DESC, EllipsisMask, SliceCount), E}},
    {DML_OPERATOR_JOIN,
     {U(DML_JOIN_OPERATOR_DESC, InputCount),
      TLIST(DML_JOIN_OPERATOR_DESC, InputTensors, InputCount),
      T(DML_JOIN_OPERATOR_DESC, OutputTensor), U(DML_JOIN_OPERATOR_DESC, Axis), E}},
    {DML_OPERATOR_SPLIT,
     {T(DML_SPLIT_OPERATOR_DESC, InputTensor), U(DML_SPLIT_OPERATOR_DESC, OutputCount),
      TLIST(DML_SPLIT_OPERATOR_DESC, OutputTensors, OutputCount), U(DML_SPLIT_OPERATOR_DESC, Axis),
      E}},
    {DMLCL_OPERATOR_JOIN1,
     {U(DMLCL_JOIN1_OPERATOR_DESC, InputCount),
      TLIST(DMLCL_JOIN1_OPERATOR_DESC, InputTensors, InputCount),
      T(DMLCL_JOIN1_OPERATOR_DESC, OutputTensor), U(DMLCL_JOIN1_OPERATOR_DESC, Axis), E}},
    {DMLCL_OPERATOR_SPLIT1,
     {T(DMLCL_SPLIT1_OPERATOR_DESC, InputTensor), U(DMLCL_SPLIT1_OPERATOR_DESC, OutputCount),
      TLIST(DMLCL_SPLIT1_OPERATOR_DESC, OutputTensors, OutputCount),
      U(DMLCL_SPLIT1_OPERATOR_DESC, Axis), E}},
    {DML_OPERATOR_TILE,
     {T(DML_TILE_OPERATOR_DESC, InputTensor), T(DML_TILE_OPERATOR_DESC, OutputTensor),
      U(DML_TILE_OPERATOR_DESC, RepeatsCount),
      LIST(LIST_U32, DML_TILE_OPERATOR_DESC, Repeats, RepeatsCount), E}},
    /* The element-wise rows (src/ops/elementwise.c): one binary, one binary with integer
     * rules of its own, one unary with ScaleBias, one without; the other rows share their
     * validation. */
    {DML_OPERATOR_ELEMENT_WISE_ADD,
     {T(DML_ELEMENT_WISE_ADD_OPERATOR_DESC, ATensor),
      T(DML_ELEMENT_WISE_ADD_OPERATOR_DESC, BTensor),
      T(DML_ELEMENT_WISE_ADD_OPERATOR_DESC, OutputTensor), E}},
    {DML_OPERATOR_ELEMENT_WISE_DIVIDE,
     {T(DML_ELEMENT_WISE_DIVIDE_OPERATOR_DESC, ATensor),
      T(DML_ELEMENT_WISE_DIVIDE_OPERATOR_DESC, BTensor),
      T(DML_ELEMENT_WISE_DIVIDE_OPERATOR_DESC, OutputTensor), E}},
    {DML_OPERATOR_ELEMENT_WISE_ABS,
     {T(DML_ELEMENT_WISE_ABS_OPERATOR_DESC, InputTensor),
      T(DML_ELEMENT_WISE_ABS_OPERATOR_DESC, OutputTensor),
      {SCALE_BIAS, offsetof(DML_ELEMENT_WISE_ABS_OPERATOR_DESC, ScaleBias), 0},
      E}},
    {DML_OPERATOR_ELEMENT_WISE_NEGATE,
     {T(DML_ELEMENT_WISE_NEGATE_OPERATOR_DESC, InputTensor),
      T(DML_ELEMENT_WISE_NEGATE_OPERATOR_DESC, OutputTensor), E}},
    /* The logic rows (src/ops/elementwise_logic.c), every descriptor shape once: a
     * comparison (an output type of its own), IS_INFINITY (a mode), IF (three inputs), CAST,
     * and the fills (no input, values of ValueDataType). */
    {DML_OPERATOR_ELEMENT_WISE_LOGICAL_EQUALS,
     {T(DML_ELEMENT_WISE_LOGICAL_EQUALS_OPERATOR_DESC, ATensor),
      T(DML_ELEMENT_WISE_LOGICAL_EQUALS_OPERATOR_DESC, BTensor),
      T(DML_ELEMENT_WISE_LOGICAL_EQUALS_OPERATOR_DESC, OutputTensor), E}},
    {DML_OPERATOR_ELEMENT_WISE_IS_INFINITY,
     {T(DML_ELEMENT_WISE_IS_INFINITY_OPERATOR_DESC, InputTensor),
      T(DML_ELEMENT_WISE_IS_INFINITY_OPERATOR_DESC, OutputTensor),
      U(DML_ELEMENT_WISE_IS_INFINITY_OPERATOR_DESC, InfinityMode), E}},
    {DML_OPERATOR_ELEMENT_WISE_IF,
     {T(DML_ELEMENT_WISE_IF_OPERATOR_DESC, ConditionTensor),
      T(DML_ELEMENT_WISE_IF_OPERATOR_DESC, ATensor), T(DML_ELEMENT_WISE_IF_OPERATOR_DESC, BTensor),
      T(DML_ELEMENT_WISE_IF_OPERATOR_DESC, OutputTensor), E}},
    {DML_OPERATOR_CAST,
     {T(DML_CAST_OPERATOR_DESC, InputTensor), T(DML_CAST_OPERATOR_DESC, OutputTensor), E}},
    {DML_OPERATOR_FILL_VALUE_CONSTANT,
     {T(DML_FILL_VALUE_CONSTANT_OPERATOR_DESC, OutputTensor),
      U(DML_FILL_VALUE_CONSTANT_OPERATOR_DESC, ValueDataType),
      SCAL(SCALAR, DML_FILL_VALUE_CONSTANT_OPERATOR_DESC, Value), E}},
    {DML_OPERATOR_FILL_VALUE_SEQUENCE,
     {T(DML_FILL_VALUE_SEQUENCE_OPERATOR_DESC, OutputTensor),
      U(DML_FILL_VALUE_SEQUENCE_OPERATOR_DESC, ValueDataType),
      SCAL(SCALAR, DML_FILL_VALUE_SEQUENCE_OPERATOR_DESC, ValueStart),
      SCAL(SCALAR, DML_FILL_VALUE_SEQUENCE_OPERATOR_DESC, ValueDelta), E}},
    /* The generators that read an element's position (src/ops/one_hot.c, diagonal_matrix.c). */
    {DML_OPERATOR_ONE_HOT,
     {T(DML_ONE_HOT_OPERATOR_DESC, IndicesTensor), T(DML_ONE_HOT_OPERATOR_DESC, ValuesTensor),
      T(DML_ONE_HOT_OPERATOR_DESC, OutputTensor), U(DML_ONE_HOT_OPERATOR_DESC, Axis), E}},
    {DML_OPERATOR_DIAGONAL_MATRIX,
     {T(DML_DIAGONAL_MATRIX_OPERATOR_DESC, OutputTensor),
      U(DML_DIAGONAL_MATRIX_OPERATOR_DESC, Offset), U(DML_DIAGONAL_MATRIX_OPERATOR_DESC, Value),
      E}},
    {DML_OPERATOR_DIAGONAL_MATRIX1,
     {T(DML_DIAGONAL_MATRIX1_OPERATOR_DESC, InputTensor),
      T(DML_DIAGONAL_MATRIX1_OPERATOR_DESC, OutputTensor),
      U(DML_DIAGONAL_MATRIX1_OPERATOR_DESC, ValueDataType),
      SCAL(SCALAR, DML_DIAGONAL_MATRIX1_OPERATOR_DESC, Value),
      U(DML_DIAGONAL_MATRIX1_OPERATOR_DESC, DiagonalFillBegin),
      U(DML_DIAGONAL_MATRIX1_OPERATOR_DESC, DiagonalFillEnd), E}},
    /* Activations: two FLOATs, one FLOAT with a rule, a slope tensor, a fused activation. */
    {DML_OPERATOR_ACTIVATION_LINEAR,
     {T(DML_ACTIVATION_LINEAR_OPERATOR_DESC, InputTensor),
      T(DML_ACTIVATION_LINEAR_OPERATOR_DESC, OutputTensor),
      U(DML_ACTIVATION_LINEAR_OPERATOR_DESC, Alpha), U(DML_ACTIVATION_LINEAR_OPERATOR_DESC, Beta),
      E}},
    {DML_OPERATOR_ACTIVATION_SOFTPLUS,
     {T(DML_ACTIVATION_SOFTPLUS_OPERATOR_DESC, InputTensor),
      T(DML_ACTIVATION_SOFTPLUS_OPERATOR_DESC, OutputTensor),
      U(DML_ACTIVATION_SOFTPLUS_OPERATOR_DESC, Steepness), E}},
    {DML_OPERATOR_ACTIVATION_PARAMETERIZED_RELU,
     {T(DML_ACTIVATION_PARAMETERIZED_RELU_OPERATOR_DESC, InputTensor),
      T(DML_ACTIVATION_PARAMETERIZED_RELU_OPERATOR_DESC, SlopeTensor),
      T(DML_ACTIVATION_PARAMETERIZED_RELU_OPERATOR_DESC, OutputTensor), E}},
    {DML_OPERATOR_ELEMENT_WISE_ADD1,
     {T(DML_ELEMENT_WISE_ADD1_OPERATOR_DESC, ATensor),
      T(DML_ELEMENT_WISE_ADD1_OPERATOR_DESC, BTensor),
      T(DML_ELEMENT_WISE_ADD1_OPERATOR_DESC, OutputTensor),
      {FUSED, offsetof(DML_ELEMENT_WISE_ADD1_OPERATOR_DESC, FusedActivation), 0},
      E}},
    /* The math rows (src/ops/elementwise_math.c), one per descriptor shape the rows above do
     * not have: FLOAT bounds (U32 draws their bits: NaN and infinities too), typed bounds, a
     * second input of its own type, an enumeration. THRESHOLD stands for CONSTANT_POW. */
    {DML_OPERATOR_ELEMENT_WISE_CLIP,
     {T(DML_ELEMENT_WISE_CLIP_OPERATOR_DESC, InputTensor),
      T(DML_ELEMENT_WISE_CLIP_OPERATOR_DESC, OutputTensor),
      {SCALE_BIAS, offsetof(DML_ELEMENT_WISE_CLIP_OPERATOR_DESC, ScaleBias), 0},
      U(DML_ELEMENT_WISE_CLIP_OPERATOR_DESC, Min),
      U(DML_ELEMENT_WISE_CLIP_OPERATOR_DESC, Max),
      E}},
    {DML_OPERATOR_ELEMENT_WISE_CLIP1,
     {T(DML_ELEMENT_WISE_CLIP1_OPERATOR_DESC, InputTensor),
      T(DML_ELEMENT_WISE_CLIP1_OPERATOR_DESC, OutputTensor),
      {SCALE_BIAS, offsetof(DML_ELEMENT_WISE_CLIP1_OPERATOR_DESC, ScaleBias), 0},
      U(DML_ELEMENT_WISE_CLIP1_OPERATOR_DESC, MinMaxDataType),
      SCAL(SCALAR, DML_ELEMENT_WISE_CLIP1_OPERATOR_DESC, Min),
      SCAL(SCALAR, DML_ELEMENT_WISE_CLIP1_OPERATOR_DESC, Max),
      E}},
    {DML_OPERATOR_ELEMENT_WISE_THRESHOLD,
     {T(DML_ELEMENT_WISE_THRESHOLD_OPERATOR_DESC, InputTensor),
      T(DML_ELEMENT_WISE_THRESHOLD_OPERATOR_DESC, OutputTensor),
      {SCALE_BIAS, offsetof(DML_ELEMENT_WISE_THRESHOLD_OPERATOR_DESC, ScaleBias), 0},
      U(DML_ELEMENT_WISE_THRESHOLD_OPERATOR_DESC, Min),
      E}},
    {DML_OPERATOR_ELEMENT_WISE_POW,
     {T(DML_ELEMENT_WISE_POW_OPERATOR_DESC, InputTensor),
      T(DML_ELEMENT_WISE_POW_OPERATOR_DESC, ExponentTensor),
      T(DML_ELEMENT_WISE_POW_OPERATOR_DESC, OutputTensor),
      {SCALE_BIAS, offsetof(DML_ELEMENT_WISE_POW_OPERATOR_DESC, ScaleBias), 0},
      E}},
    {DML_OPERATOR_ELEMENT_WISE_ROUND,
     {T(DML_ELEMENT_WISE_ROUND_OPERATOR_DESC, InputTensor),
      T(DML_ELEMENT_WISE_ROUND_OPERATOR_DESC, OutputTensor),
      U(DML_ELEMENT_WISE_ROUND_OPERATOR_DESC, RoundingMode), E}},
    {DML_OPERATOR_REDUCE,
     {U(DML_REDUCE_OPERATOR_DESC, Function), T(DML_REDUCE_OPERATOR_DESC, InputTensor),
      T(DML_REDUCE_OPERATOR_DESC, OutputTensor), U(DML_REDUCE_OPERATOR_DESC, AxisCount),
      LIST(LIST_U32, DML_REDUCE_OPERATOR_DESC, Axes, AxisCount), E}},
    {DML_OPERATOR_ARGMIN,
     {T(DML_ARGMIN_OPERATOR_DESC, InputTensor), T(DML_ARGMIN_OPERATOR_DESC, OutputTensor),
      U(DML_ARGMIN_OPERATOR_DESC, AxisCount),
      LIST(LIST_U32, DML_ARGMIN_OPERATOR_DESC, Axes, AxisCount),
      U(DML_ARGMIN_OPERATOR_DESC, AxisDirection), E}},
    {DML_OPERATOR_ARGMAX,
     {T(DML_ARGMAX_OPERATOR_DESC, InputTensor), T(DML_ARGMAX_OPERATOR_DESC, OutputTensor),
      U(DML_ARGMAX_OPERATOR_DESC, AxisCount),
      LIST(LIST_U32, DML_ARGMAX_OPERATOR_DESC, Axes, AxisCount),
      U(DML_ARGMAX_OPERATOR_DESC, AxisDirection), E}},
    /* The normalising operators (src/ops/softmax.c, src/ops/mvn.c): HARDMAX stands for the
     * 1.0 softmax family, SOFTMAX1 for the *1 one; BOOLs and FLOATs are U32s. */
    {DML_OPERATOR_ACTIVATION_HARDMAX,
     {T(DML_ACTIVATION_HARDMAX_OPERATOR_DESC, InputTensor),
      T(DML_ACTIVATION_HARDMAX_OPERATOR_DESC, OutputTensor), E}},
    {DML_OPERATOR_ACTIVATION_SOFTMAX1,
     {T(DML_ACTIVATION_SOFTMAX1_OPERATOR_DESC, InputTensor),
      T(DML_ACTIVATION_SOFTMAX1_OPERATOR_DESC, OutputTensor),
      U(DML_ACTIVATION_SOFTMAX1_OPERATOR_DESC, AxisCount),
      LIST(LIST_U32, DML_ACTIVATION_SOFTMAX1_OPERATOR_DESC, Axes, AxisCount), E}},
    {DML_OPERATOR_MEAN_VARIANCE_NORMALIZATION,
     {T(DML_MEAN_VARIANCE_NORMALIZATION_OPERATOR_DESC, InputTensor),
      T(DML_MEAN_VARIANCE_NORMALIZATION_OPERATOR_DESC, ScaleTensor),
      T(DML_MEAN_VARIANCE_NORMALIZATION_OPERATOR_DESC, BiasTensor),
      T(DML_MEAN_VARIANCE_NORMALIZATION_OPERATOR_DESC, OutputTensor),
      U(DML_MEAN_VARIANCE_NORMALIZATION_OPERATOR_DESC, CrossChannel),
      U(DML_MEAN_VARIANCE_NORMALIZATION_OPERATOR_DESC, NormalizeVariance),
      U(DML_MEAN_VARIANCE_NORMALIZATION_OPERATOR_DESC, Epsilon),
      {FUSED, offsetof(DML_MEAN_VARIANCE_NORMALIZATION_OPERATOR_DESC, FusedActivation), 0},
      E}},
    {DML_OPERATOR_MEAN_VARIANCE_NORMALIZATION2,
     {T(DML_MEAN_VARIANCE_NORMALIZATION2_OPERATOR_DESC, InputTensor),
      T(DML_MEAN_VARIANCE_NORMALIZATION2_OPERATOR_DESC, ScaleTensor),
      T(DML_MEAN_VARIANCE_NORMALIZATION2_OPERATOR_DESC, BiasTensor),
      T(DML_MEAN_VARIANCE_NORMALIZATION2_OPERATOR_DESC, OutputTensor),
      U(DML_MEAN_VARIANCE_NORMALIZATION2_OPERATOR_DESC, AxisCount),
      LIST(LIST_U32, DML_MEAN_VARIANCE_NORMALIZATION2_OPERATOR_DESC, Axes, AxisCount),
      U(DML_MEAN_VARIANCE_NORMALIZATION2_OPERATOR_DESC, UseMean),
      U(DML_MEAN_VARIANCE_NORMALIZATION2_OPERATOR_DESC, UseVariance),
      U(DML_MEAN_VARIANCE_NORMALIZATION2_OPERATOR_DESC, Epsilon),
      {FUSED, offsetof(DML_MEAN_VARIANCE_NORMALIZATION2_OPERATOR_DESC, FusedActivation), 0},
      E}},
    {DML_OPERATOR_LP_NORMALIZATION,
     {T(DML_LP_NORMALIZATION_OPERATOR_DESC, InputTensor),
      T(DML_LP_NORMALIZATION_OPERATOR_DESC, OutputTensor),
      U(DML_LP_NORMALIZATION_OPERATOR_DESC, Axis), U(DML_LP_NORMALIZATION_OPERATOR_DESC, Epsilon),
      U(DML_LP_NORMALIZATION_OPERATOR_DESC, P), E}},
    /* Scans, top-k and LRN (src/ops/cumulative.c, top_k.c, lrn.c): CUMULATIVE_PRODUCT and
     * TOP_K share their siblings' code. */
    {DML_OPERATOR_CUMULATIVE_SUMMATION,
     {T(DML_CUMULATIVE_SUMMATION_OPERATOR_DESC, InputTensor),
      T(DML_CUMULATIVE_SUMMATION_OPERATOR_DESC, OutputTensor),
      U(DML_CUMULATIVE_SUMMATION_OPERATOR_DESC, Axis),
      U(DML_CUMULATIVE_SUMMATION_OPERATOR_DESC, AxisDirection),
      U(DML_CUMULATIVE_SUMMATION_OPERATOR_DESC, HasExclusiveSum), E}},
    {DML_OPERATOR_TOP_K1,
     {T(DML_TOP_K1_OPERATOR_DESC, InputTensor), T(DML_TOP_K1_OPERATOR_DESC, OutputValueTensor),
      T(DML_TOP_K1_OPERATOR_DESC, OutputIndexTensor), U(DML_TOP_K1_OPERATOR_DESC, Axis),
      U(DML_TOP_K1_OPERATOR_DESC, K), U(DML_TOP_K1_OPERATOR_DESC, AxisDirection), E}},
    {DML_OPERATOR_LOCAL_RESPONSE_NORMALIZATION,
     {T(DML_LOCAL_RESPONSE_NORMALIZATION_OPERATOR_DESC, InputTensor),
      T(DML_LOCAL_RESPONSE_NORMALIZATION_OPERATOR_DESC, OutputTensor),
      U(DML_LOCAL_RESPONSE_NORMALIZATION_OPERATOR_DESC, CrossChannel),
      U(DML_LOCAL_RESPONSE_NORMALIZATION_OPERATOR_DESC, LocalSize),
      U(DML_LOCAL_RESPONSE_NORMALIZATION_OPERATOR_DESC, Alpha),
      U(DML_LOCAL_RESPONSE_NORMALIZATION_OPERATOR_DESC, Beta),
      U(DML_LOCAL_RESPONSE_NORMALIZATION_OPERATOR_DESC, Bias), E}},
    {DML_OPERATOR_MAX_POOLING,
     {T(DML_MAX_POOLING_OPERATOR_DESC, InputTensor), T(DML_MAX_POOLING_OPERATOR_DESC, OutputTensor),
      U(DML_MAX_POOLING_OPERATOR_DESC, DimensionCount),
      LIST(LIST_U32, DML_MAX_POOLING_OPERATOR_DESC, Strides, DimensionCount),
      LIST(LIST_U32, DML_MAX_POOLING_OPERATOR_DESC, WindowSize, DimensionCount),
      LIST(LIST_U32, DML_MAX_POOLING_OPERATOR_DESC, StartPadding, DimensionCount),
      LIST(LIST_U32, DML_MAX_POOLING_OPERATOR_DESC, EndPadding, DimensionCount), E}},
    {DML_OPERATOR_MAX_POOLING1,
     {T(DML_MAX_POOLING1_OPERATOR_DESC, InputTensor),
      T(DML_MAX_POOLING1_OPERATOR_DESC, OutputTensor),
      T(DML_MAX_POOLING1_OPERATOR_DESC, OutputIndicesTensor),
      U(DML_MAX_POOLING1_OPERATOR_DESC, DimensionCount),
      LIST(LIST_U32, DML_MAX_POOLING1_OPERATOR_DESC, Strides, DimensionCount),
      LIST(LIST_U32, DML_MAX_POOLING1_OPERATOR_DESC, WindowSize, DimensionCount),
      LIST(LIST_U32, DML_MAX_POOLING1_OPERATOR_DESC, StartPadding, DimensionCount),
      LIST(LIST_U32, DML_MAX_POOLING1_OPERATOR_DESC, EndPadding, DimensionCount), E}},
    {DML_OPERATOR_MAX_POOLING2,
     {T(DML_MAX_POOLING2_OPERATOR_DESC, InputTensor),
      T(DML_MAX_POOLING2_OPERATOR_DESC, OutputTensor),
      T(DML_MAX_POOLING2_OPERATOR_DESC, OutputIndicesTensor),
      U(DML_MAX_POOLING2_OPERATOR_DESC, DimensionCount),
      LIST(LIST_U32, DML_MAX_POOLING2_OPERATOR_DESC, Strides, DimensionCount),
      LIST(LIST_U32, DML_MAX_POOLING2_OPERATOR_DESC, WindowSize, DimensionCount),
      LIST(LIST_U32, DML_MAX_POOLING2_OPERATOR_DESC, StartPadding, DimensionCount),
      LIST(LIST_U32, DML_MAX_POOLING2_OPERATOR_DESC, EndPadding, DimensionCount),
      LIST(LIST_U32, DML_MAX_POOLING2_OPERATOR_DESC, Dilations, DimensionCount), E}},
    {DML_OPERATOR_AVERAGE_POOLING,
     {T(DML_AVERAGE_POOLING_OPERATOR_DESC, InputTensor),
      T(DML_AVERAGE_POOLING_OPERATOR_DESC, OutputTensor),
      U(DML_AVERAGE_POOLING_OPERATOR_DESC, DimensionCount),
      LIST(LIST_U32, DML_AVERAGE_POOLING_OPERATOR_DESC, Strides, DimensionCount),
      LIST(LIST_U32, DML_AVERAGE_POOLING_OPERATOR_DESC, WindowSize, DimensionCount),
      LIST(LIST_U32, DML_AVERAGE_POOLING_OPERATOR_DESC, StartPadding, DimensionCount),
      LIST(LIST_U32, DML_AVERAGE_POOLING_OPERATOR_DESC, EndPadding, DimensionCount),
      U(DML_AVERAGE_POOLING_OPERATOR_DESC, IncludePadding), E}},
    {DML_OPERATOR_AVERAGE_POOLING1,
     {T(DML_AVERAGE_POOLING1_OPERATOR_DESC, InputTensor),
      T(DML_AVERAGE_POOLING1_OPERATOR_DESC, OutputTensor),
      U(DML_AVERAGE_POOLING1_OPERATOR_DESC, DimensionCount),
      LIST(LIST_U32, DML_AVERAGE_POOLING1_OPERATOR_DESC, Strides, DimensionCount),
      LIST(LIST_U32, DML_AVERAGE_POOLING1_OPERATOR_DESC, WindowSize, DimensionCount),
      LIST(LIST_U32, DML_AVERAGE_POOLING1_OPERATOR_DESC, StartPadding, DimensionCount),
      LIST(LIST_U32, DML_AVERAGE_POOLING1_OPERATOR_DESC, EndPadding, DimensionCount),
      LIST(LIST_U32, DML_AVERAGE_POOLING1_OPERATOR_DESC, Dilations, DimensionCount),
      U(DML_AVERAGE_POOLING1_OPERATOR_DESC, IncludePadding), E}},
    {DML_OPERATOR_LP_POOLING,
     {T(DML_LP_POOLING_OPERATOR_DESC, InputTensor), T(DML_LP_POOLING_OPERATOR_DESC, OutputTensor),
      U(DML_LP_POOLING_OPERATOR_DESC, DimensionCount),
      LIST(LIST_U32, DML_LP_POOLING_OPERATOR_DESC, Strides, DimensionCount),
      LIST(LIST_U32, DML_LP_POOLING_OPERATOR_DESC, WindowSize, DimensionCount),
      LIST(LIST_U32, DML_LP_POOLING_OPERATOR_DESC, StartPadding, DimensionCount),
      LIST(LIST_U32, DML_LP_POOLING_OPERATOR_DESC, EndPadding, DimensionCount),
      U(DML_LP_POOLING_OPERATOR_DESC, P), E}},
    {DML_OPERATOR_LP_POOLING1,
     {T(DML_LP_POOLING1_OPERATOR_DESC, InputTensor), T(DML_LP_POOLING1_OPERATOR_DESC, OutputTensor),
      U(DML_LP_POOLING1_OPERATOR_DESC, DimensionCount),
      LIST(LIST_U32, DML_LP_POOLING1_OPERATOR_DESC, Strides, DimensionCount),
      LIST(LIST_U32, DML_LP_POOLING1_OPERATOR_DESC, WindowSize, DimensionCount),
      LIST(LIST_U32, DML_LP_POOLING1_OPERATOR_DESC, StartPadding, DimensionCount),
      LIST(LIST_U32, DML_LP_POOLING1_OPERATOR_DESC, EndPadding, DimensionCount),
      LIST(LIST_U32, DML_LP_POOLING1_OPERATOR_DESC, Dilations, DimensionCount),
      U(DML_LP_POOLING1_OPERATOR_DESC, P), E}},
    /* Resampling (src/ops/resample.c): FLOAT lists as their bits (LIST_U32). */
    {DML_OPERATOR_UPSAMPLE_2D,
     {T(DML_UPSAMPLE_2D_OPERATOR_DESC, InputTensor), T(DML_UPSAMPLE_2D_OPERATOR_DESC, OutputTensor),
      U(DML_UPSAMPLE_2D_OPERATOR_DESC, ScaleSize.Width),
      U(DML_UPSAMPLE_2D_OPERATOR_DESC, ScaleSize.Height),
      U(DML_UPSAMPLE_2D_OPERATOR_DESC, InterpolationMode), E}},
    {DML_OPERATOR_RESAMPLE,
     {T(DML_RESAMPLE_OPERATOR_DESC, InputTensor), T(DML_RESAMPLE_OPERATOR_DESC, OutputTensor),
      U(DML_RESAMPLE_OPERATOR_DESC, InterpolationMode), U(DML_RESAMPLE_OPERATOR_DESC, ScaleCount),
      LIST(LIST_U32, DML_RESAMPLE_OPERATOR_DESC, Scales, ScaleCount), E}},
    {DML_OPERATOR_RESAMPLE1,
     {T(DML_RESAMPLE1_OPERATOR_DESC, InputTensor), T(DML_RESAMPLE1_OPERATOR_DESC, OutputTensor),
      U(DML_RESAMPLE1_OPERATOR_DESC, InterpolationMode),
      U(DML_RESAMPLE1_OPERATOR_DESC, DimensionCount),
      LIST(LIST_U32, DML_RESAMPLE1_OPERATOR_DESC, Scales, DimensionCount),
      LIST(LIST_U32, DML_RESAMPLE1_OPERATOR_DESC, InputPixelOffsets, DimensionCount),
      LIST(LIST_U32, DML_RESAMPLE1_OPERATOR_DESC, OutputPixelOffsets, DimensionCount), E}},
    {DML_OPERATOR_RESAMPLE2,
     {T(DML_RESAMPLE2_OPERATOR_DESC, InputTensor), T(DML_RESAMPLE2_OPERATOR_DESC, OutputTensor),
      U(DML_RESAMPLE2_OPERATOR_DESC, InterpolationMode),
      U(DML_RESAMPLE2_OPERATOR_DESC, RoundingDirection),
      U(DML_RESAMPLE2_OPERATOR_DESC, DimensionCount),
      LIST(LIST_U32, DML_RESAMPLE2_OPERATOR_DESC, Scales, DimensionCount),
      LIST(LIST_U32, DML_RESAMPLE2_OPERATOR_DESC, InputPixelOffsets, DimensionCount),
      LIST(LIST_U32, DML_RESAMPLE2_OPERATOR_DESC, OutputPixelOffsets, DimensionCount), E}},
    {DML_OPERATOR_RESAMPLE3,
     {T(DML_RESAMPLE3_OPERATOR_DESC, InputTensor), T(DML_RESAMPLE3_OPERATOR_DESC, OutputTensor),
      U(DML_RESAMPLE3_OPERATOR_DESC, InterpolationMode),
      U(DML_RESAMPLE3_OPERATOR_DESC, RoundingDirection),
      U(DML_RESAMPLE3_OPERATOR_DESC, DimensionCount),
      LIST(LIST_U32, DML_RESAMPLE3_OPERATOR_DESC, Scales, DimensionCount),
      LIST(LIST_U32, DML_RESAMPLE3_OPERATOR_DESC, InputPixelOffsets, DimensionCount),
      LIST(LIST_U32, DML_RESAMPLE3_OPERATOR_DESC, OutputPixelOffsets, DimensionCount),
      U(DML_RESAMPLE3_OPERATOR_DESC, Antialiased), E}},
    {DML_OPERATOR_VALUE_SCALE_2D,
     {T(DML_VALUE_SCALE_2D_OPERATOR_DESC, InputTensor),
      T(DML_VALUE_SCALE_2D_OPERATOR_DESC, OutputTensor), U(DML_VALUE_SCALE_2D_OPERATOR_DESC, Scale),
      U(DML_VALUE_SCALE_2D_OPERATOR_DESC, ChannelCount),
      LIST(LIST_U32, DML_VALUE_SCALE_2D_OPERATOR_DESC, Bias, ChannelCount), E}},
    /* GEMM (src/ops/gemm.c, a computed operator): C optional, TransA/TransB any UINT. */
    {DML_OPERATOR_GEMM,
     {T(DML_GEMM_OPERATOR_DESC, ATensor),
      T(DML_GEMM_OPERATOR_DESC, BTensor),
      T(DML_GEMM_OPERATOR_DESC, CTensor),
      T(DML_GEMM_OPERATOR_DESC, OutputTensor),
      U(DML_GEMM_OPERATOR_DESC, TransA),
      U(DML_GEMM_OPERATOR_DESC, TransB),
      U(DML_GEMM_OPERATOR_DESC, Alpha),
      U(DML_GEMM_OPERATOR_DESC, Beta),
      {FUSED, offsetof(DML_GEMM_OPERATOR_DESC, FusedActivation), 0},
      E}},
    /* The conv family (src/ops/conv.c): the five arrays share DimensionCount. */
    {DML_OPERATOR_CONVOLUTION,
     {T(DML_CONVOLUTION_OPERATOR_DESC, InputTensor),
      T(DML_CONVOLUTION_OPERATOR_DESC, FilterTensor),
      T(DML_CONVOLUTION_OPERATOR_DESC, BiasTensor),
      T(DML_CONVOLUTION_OPERATOR_DESC, OutputTensor),
      U(DML_CONVOLUTION_OPERATOR_DESC, Mode),
      U(DML_CONVOLUTION_OPERATOR_DESC, Direction),
      U(DML_CONVOLUTION_OPERATOR_DESC, DimensionCount),
      LIST(LIST_U32, DML_CONVOLUTION_OPERATOR_DESC, Strides, DimensionCount),
      LIST(LIST_U32, DML_CONVOLUTION_OPERATOR_DESC, Dilations, DimensionCount),
      LIST(LIST_U32, DML_CONVOLUTION_OPERATOR_DESC, StartPadding, DimensionCount),
      LIST(LIST_U32, DML_CONVOLUTION_OPERATOR_DESC, EndPadding, DimensionCount),
      LIST(LIST_U32, DML_CONVOLUTION_OPERATOR_DESC, OutputPadding, DimensionCount),
      U(DML_CONVOLUTION_OPERATOR_DESC, GroupCount),
      {FUSED, offsetof(DML_CONVOLUTION_OPERATOR_DESC, FusedActivation), 0},
      E}},
    /* QUANTIZE_LINEAR and DEQUANTIZE_LINEAR (src/ops/elementwise_quant.c): three inputs of
     * types of their own, ZeroPointTensor optional (NULL: absent). */
    {DML_OPERATOR_ELEMENT_WISE_QUANTIZE_LINEAR,
     {T(DML_ELEMENT_WISE_QUANTIZE_LINEAR_OPERATOR_DESC, InputTensor),
      T(DML_ELEMENT_WISE_QUANTIZE_LINEAR_OPERATOR_DESC, ScaleTensor),
      T(DML_ELEMENT_WISE_QUANTIZE_LINEAR_OPERATOR_DESC, ZeroPointTensor),
      T(DML_ELEMENT_WISE_QUANTIZE_LINEAR_OPERATOR_DESC, OutputTensor), E}},
    {DML_OPERATOR_ELEMENT_WISE_DEQUANTIZE_LINEAR,
     {T(DML_ELEMENT_WISE_DEQUANTIZE_LINEAR_OPERATOR_DESC, InputTensor),
      T(DML_ELEMENT_WISE_DEQUANTIZE_LINEAR_OPERATOR_DESC, ScaleTensor),
      T(DML_ELEMENT_WISE_DEQUANTIZE_LINEAR_OPERATOR_DESC, ZeroPointTensor),
      T(DML_ELEMENT_WISE_DEQUANTIZE_LINEAR_OPERATOR_DESC, OutputTensor), E}},
    /* The scatters (src/ops/scatter.c): four tensors, a computed operator after a copy. */
    {DML_OPERATOR_SCATTER_ELEMENTS,
     {T(DML_SCATTER_ELEMENTS_OPERATOR_DESC, InputTensor),
      T(DML_SCATTER_ELEMENTS_OPERATOR_DESC, IndicesTensor),
      T(DML_SCATTER_ELEMENTS_OPERATOR_DESC, UpdatesTensor),
      T(DML_SCATTER_ELEMENTS_OPERATOR_DESC, OutputTensor),
      U(DML_SCATTER_ELEMENTS_OPERATOR_DESC, Axis), E}},
    {DML_OPERATOR_SCATTER_ND,
     {T(DML_SCATTER_ND_OPERATOR_DESC, InputTensor), T(DML_SCATTER_ND_OPERATOR_DESC, IndicesTensor),
      T(DML_SCATTER_ND_OPERATOR_DESC, UpdatesTensor), T(DML_SCATTER_ND_OPERATOR_DESC, OutputTensor),
      U(DML_SCATTER_ND_OPERATOR_DESC, InputDimensionCount),
      U(DML_SCATTER_ND_OPERATOR_DESC, IndicesDimensionCount), E}},
    /* QUANTIZE and DEQUANTIZE (src/ops/quantize.c): the scale and zero point as a list whose
     * length QuantizationType says; ELEMENT_WISE_QUANTIZED_LINEAR_ADD (src/ops/quantized_add.c):
     * nine tensors, three zero points optional. */
    {DML_OPERATOR_QUANTIZE,
     {T(DML_QUANTIZE_OPERATOR_DESC, InputTensor), U(DML_QUANTIZE_OPERATOR_DESC, QuantizationType),
      U(DML_QUANTIZE_OPERATOR_DESC, QuantizationTensorCount),
      TLIST(DML_QUANTIZE_OPERATOR_DESC, QuantizationTensors, QuantizationTensorCount),
      T(DML_QUANTIZE_OPERATOR_DESC, OutputTensor), E}},
    {DML_OPERATOR_DEQUANTIZE,
     {T(DML_DEQUANTIZE_OPERATOR_DESC, InputTensor),
      U(DML_DEQUANTIZE_OPERATOR_DESC, QuantizationType),
      U(DML_DEQUANTIZE_OPERATOR_DESC, QuantizationTensorCount),
      TLIST(DML_DEQUANTIZE_OPERATOR_DESC, QuantizationTensors, QuantizationTensorCount),
      T(DML_DEQUANTIZE_OPERATOR_DESC, OutputTensor), E}},
    {DML_OPERATOR_ELEMENT_WISE_QUANTIZED_LINEAR_ADD,
     {T(DML_ELEMENT_WISE_QUANTIZED_LINEAR_ADD_OPERATOR_DESC, ATensor),
      T(DML_ELEMENT_WISE_QUANTIZED_LINEAR_ADD_OPERATOR_DESC, AScaleTensor),
      T(DML_ELEMENT_WISE_QUANTIZED_LINEAR_ADD_OPERATOR_DESC, AZeroPointTensor),
      T(DML_ELEMENT_WISE_QUANTIZED_LINEAR_ADD_OPERATOR_DESC, BTensor),
      T(DML_ELEMENT_WISE_QUANTIZED_LINEAR_ADD_OPERATOR_DESC, BScaleTensor),
      T(DML_ELEMENT_WISE_QUANTIZED_LINEAR_ADD_OPERATOR_DESC, BZeroPointTensor),
      T(DML_ELEMENT_WISE_QUANTIZED_LINEAR_ADD_OPERATOR_DESC, OutputScaleTensor),
      T(DML_ELEMENT_WISE_QUANTIZED_LINEAR_ADD_OPERATOR_DESC, OutputZeroPointTensor),
      T(DML_ELEMENT_WISE_QUANTIZED_LINEAR_ADD_OPERATOR_DESC, OutputTensor), E}},
    /* DYNAMIC_QUANTIZE_LINEAR (src/ops/dynamic_quantize.c) and QUANTIZED_LINEAR_AVERAGE_POOLING
     * (src/ops/pool.c: the pool family's QUANT variant; its thirteenth field, IncludePadding,
     * lies past the twelve decode reads and stays FALSE). */
    {DML_OPERATOR_DYNAMIC_QUANTIZE_LINEAR,
     {T(DML_DYNAMIC_QUANTIZE_LINEAR_OPERATOR_DESC, InputTensor),
      T(DML_DYNAMIC_QUANTIZE_LINEAR_OPERATOR_DESC, OutputTensor),
      T(DML_DYNAMIC_QUANTIZE_LINEAR_OPERATOR_DESC, OutputScaleTensor),
      T(DML_DYNAMIC_QUANTIZE_LINEAR_OPERATOR_DESC, OutputZeroPointTensor), E}},
    {DML_OPERATOR_QUANTIZED_LINEAR_AVERAGE_POOLING,
     {T(DML_QUANTIZED_LINEAR_AVERAGE_POOLING_OPERATOR_DESC, InputTensor),
      T(DML_QUANTIZED_LINEAR_AVERAGE_POOLING_OPERATOR_DESC, InputScaleTensor),
      T(DML_QUANTIZED_LINEAR_AVERAGE_POOLING_OPERATOR_DESC, InputZeroPointTensor),
      T(DML_QUANTIZED_LINEAR_AVERAGE_POOLING_OPERATOR_DESC, OutputScaleTensor),
      T(DML_QUANTIZED_LINEAR_AVERAGE_POOLING_OPERATOR_DESC, OutputZeroPointTensor),
      T(DML_QUANTIZED_LINEAR_AVERAGE_POOLING_OPERATOR_DESC, OutputTensor),
      U(DML_QUANTIZED_LINEAR_AVERAGE_POOLING_OPERATOR_DESC, DimensionCount),
      LIST(LIST_U32, DML_QUANTIZED_LINEAR_AVERAGE_POOLING_OPERATOR_DESC, Strides, DimensionCount),
      LIST(LIST_U32, DML_QUANTIZED_LINEAR_AVERAGE_POOLING_OPERATOR_DESC, WindowSize,
           DimensionCount),
      LIST(LIST_U32, DML_QUANTIZED_LINEAR_AVERAGE_POOLING_OPERATOR_DESC, StartPadding,
           DimensionCount),
      LIST(LIST_U32, DML_QUANTIZED_LINEAR_AVERAGE_POOLING_OPERATOR_DESC, EndPadding,
           DimensionCount),
      LIST(LIST_U32, DML_QUANTIZED_LINEAR_AVERAGE_POOLING_OPERATOR_DESC, Dilations, DimensionCount),
      U(DML_QUANTIZED_LINEAR_AVERAGE_POOLING_OPERATOR_DESC, IncludePadding), E}},
};

/* A fused activation's Type: one of these by a selector byte below 0x80, else any UINT. */
static const DML_OPERATOR_TYPE fused_types[] = {
    DML_OPERATOR_ACTIVATION_RELU,       DML_OPERATOR_ACTIVATION_LINEAR,
    DML_OPERATOR_ACTIVATION_SOFTPLUS,   DML_OPERATOR_ACTIVATION_SHRINK,
    DML_OPERATOR_ACTIVATION_GELU,       DML_OPERATOR_ACTIVATION_SWISH,
    DML_OPERATOR_ACTIVATION_HARD_SWISH, DML_OPERATOR_ACTIVATION_PARAMETERIZED_RELU,
    DML_OPERATOR_ACTIVATION_SOFTMAX,    DML_OPERATOR_ACTIVATION_SOFTMAX1,
    DML_OPERATOR_ELEMENT_WISE_ADD};
#define N_FUSED_TYPES (sizeof fused_types / sizeof fused_types[0])

/* Every fusable activation's layout: two tensors (NULL when fused), two FLOATs; GEMM's fused
 * SOFTMAX1 (feature level 6.1) reads AxisCount and Axes after the tensors, so its Desc points
 * at the union's other member, filled when the Type is SOFTMAX1. */
typedef struct fused_layout {
    const DML_TENSOR_DESC *InputTensor;
    const DML_TENSOR_DESC *OutputTensor;
    uint32_t param[2];
} fused_layout;
typedef union fused_storage {
    fused_layout act;
    DML_ACTIVATION_SOFTMAX1_OPERATOR_DESC softmax1;
} fused_storage;
/*
 * Schemas added after the first N_PLAIN (the tensor-list ones, then TILE)
 * sit at first bytes 0xF0 to 0xFE (pick_schema), so that the other bytes keep
 * picking what they picked before; past N_ESCAPED of them, 0xFF and a second
 * byte pick the rest.
 */
#define N_PLAIN 20
#define N_ESCAPED 15
#define N_SCHEMAS (sizeof schemas / sizeof schemas[0])
_Static_assert(N_SCHEMAS - N_PLAIN <= N_ESCAPED + 256, "0xFF and one byte reach every schema");

typedef struct storage {
    _Alignas(8) unsigned char desc[256];
    DML_TENSOR_DESC tensors[MAX_TENSORS + MAX_LIST_TENSORS];
    DML_BUFFER_TENSOR_DESC buffers[MAX_TENSORS + MAX_LIST_TENSORS];
    UINT sizes[MAX_TENSORS + MAX_LIST_TENSORS][MAX_DIMS];
    UINT strides[MAX_TENSORS + MAX_LIST_TENSORS][MAX_DIMS];
    DML_TENSOR_DESC list[MAX_LIST_TENSORS]; /* contiguous, as the descriptors take them */
    int64_t lists[MAX_LISTS][MAX_LIST];
    DML_SCALE_BIAS scale_bias;
    _Alignas(8) unsigned char value[16]; /* VALUE's element: room for any type */
    DML_OPERATOR_DESC fused;             /* FUSED's description and its activation's */
    fused_storage fused_desc;
    UINT fused_axes[MAX_DIMS + 1]; /* a fused SOFTMAX1's Axes */
} storage;

/* The size a tensor claims: exactly what it needs, off by a little, or anything. */
static uint64_t decode_total(fuzz_in *in, const DML_BUFFER_TENSOR_DESC *b)
{
    uint32_t rank = b->DimensionCount > MAX_DIMS ? MAX_DIMS : b->DimensionCount;
    uint64_t exact = DMLCalcBufferTensorSize(b->DataType, rank, b->Sizes, b->Strides);
    switch (fuzz_u8(in) % 3) {
    case 0: return exact;
    case 1: return exact + (uint64_t)fuzz_i64(in);
    default: return fuzz_u64(in);
    }
}

static const DML_TENSOR_DESC *decode_tensor(fuzz_in *in, storage *s, int k)
{
    if (!(fuzz_u8(in) & 1))
        return NULL;
    DML_BUFFER_TENSOR_DESC *b = &s->buffers[k];
    b->DataType = (DML_TENSOR_DATA_TYPE)fuzz_u32(in);
    b->Flags = (DML_TENSOR_FLAGS)fuzz_u32(in);
    b->DimensionCount = fuzz_u32(in);
    uint32_t rank = b->DimensionCount > MAX_DIMS ? MAX_DIMS : b->DimensionCount;
    for (uint32_t i = 0; i < rank; ++i)
        s->sizes[k][i] = fuzz_u32(in);
    b->Sizes = s->sizes[k];
    b->Strides = NULL;
    if (fuzz_u8(in) & 1) {
        for (uint32_t i = 0; i < rank; ++i)
            s->strides[k][i] = fuzz_u32(in);
        b->Strides = s->strides[k];
    }
    b->TotalTensorSizeInBytes = decode_total(in, b);
    b->GuaranteedBaseOffsetAlignment = fuzz_u32(in);
    s->tensors[k] = (DML_TENSOR_DESC){DML_TENSOR_TYPE_BUFFER, b};
    return &s->tensors[k];
}

/* A list of `count` entries (NULL when absent); counts past MAX_LIST are cut to fit. */
static void decode_list(fuzz_in *in, storage *s, int n, const field *f, unsigned char *desc)
{
    UINT *count = (UINT *)(desc + f->count);
    if (*count > MAX_LIST)
        *count %= MAX_LIST + 1;
    void *list = NULL;
    if (fuzz_u8(in) & 1) {
        list = s->lists[n];
        for (UINT i = 0; i < *count; ++i) {
            int64_t v = fuzz_i64(in);
            if (f->k == LIST_I64)
                ((int64_t *)list)[i] = v;
            else
                ((uint32_t *)list)[i] = (uint32_t)v;
        }
    }
    memcpy(desc + f->at, &list, sizeof list);
}

/*
 * A tensor list of `count` entries (NULL when absent; an entry may have no
 * Desc); counts past MAX_LIST_TENSORS are cut to fit (the unit tests take
 * the counts past dmlcl's 64).
 */
static void decode_tensor_list(fuzz_in *in, storage *s, int *tensors, const field *f,
                               unsigned char *desc)
{
    UINT *count = (UINT *)(desc + f->count);
    if (*count > MAX_LIST_TENSORS)
        *count %= MAX_LIST_TENSORS + 1;
    const DML_TENSOR_DESC *list = NULL;
    if (fuzz_u8(in) & 1) {
        for (UINT i = 0; i < *count; ++i) {
            const DML_TENSOR_DESC *t = decode_tensor(in, s, (*tensors)++);
            s->list[i] = t ? *t : (DML_TENSOR_DESC){DML_TENSOR_TYPE_BUFFER, NULL};
        }
        list = s->list;
    }
    memcpy(desc + f->at, &list, sizeof list);
}

/* FUSED: present, a Type (fused_types[selector] or any UINT), a Desc with its tensors (slots
 * from `tensors` on) and FLOATs. */
static const DML_OPERATOR_DESC *decode_fused(fuzz_in *in, storage *s, int tensors)
{
    if (!(fuzz_u8(in) & 1))
        return NULL;
    uint8_t sel = fuzz_u8(in);
    s->fused.Type = sel < 0x80 ? fused_types[sel % N_FUSED_TYPES] : (DML_OPERATOR_TYPE)fuzz_u32(in);
    s->fused.Desc = NULL;
    if (fuzz_u8(in) & 1) {
        memset(&s->fused_desc, 0, sizeof s->fused_desc);
        s->fused_desc.act.InputTensor = decode_tensor(in, s, tensors);
        s->fused_desc.act.OutputTensor = decode_tensor(in, s, tensors + 1);
        if (s->fused.Type == DML_OPERATOR_ACTIVATION_SOFTMAX1) {
            const UINT n = fuzz_u8(in) % (MAX_DIMS + 2); /* at most fused_axes' length */
            for (UINT i = 0; i < n; ++i)
                s->fused_axes[i] = fuzz_u8(in) % (MAX_DIMS + 2);
            s->fused_desc.softmax1.AxisCount = n;
            s->fused_desc.softmax1.Axes = s->fused_axes;
        } else {
            s->fused_desc.act.param[0] = fuzz_u32(in);
            s->fused_desc.act.param[1] = fuzz_u32(in);
        }
        s->fused.Desc = &s->fused_desc;
    }
    return &s->fused;
}

/* The first byte picks the schema: the later ones from 0xF0 (0xFF: a second byte picks
 * among those past N_ESCAPED), the others as before. */
static const schema *pick_schema(fuzz_in *in)
{
    uint8_t b = fuzz_u8(in);
    size_t later = N_SCHEMAS - N_PLAIN;
    if (b < 0xF0)
        return &schemas[b % N_PLAIN];
    if (b < 0xFF || later <= N_ESCAPED)
        return &schemas[N_PLAIN + (b - 0xF0) % later];
    return &schemas[N_PLAIN + N_ESCAPED + fuzz_u8(in) % (later - N_ESCAPED)];
}

static int decode(fuzz_in *in, storage *s, DML_OPERATOR_DESC *op)
{
    const schema *sc = pick_schema(in);
    memset(s, 0, sizeof *s);
    int tensors = 0, lists = 0;
    for (const field *f = sc->f; f < sc->f + 12 && f->k != END; ++f) {
        unsigned char *at = s->desc + f->at;
        if (f->k == TENSOR) {
            const DML_TENSOR_DESC *t = decode_tensor(in, s, tensors++);
            memcpy(at, &t, sizeof t);
        } else if (f->k == TENSOR_LIST) {
            decode_tensor_list(in, s, &tensors, f, s->desc);
        } else if (f->k == U32) {
            UINT v = fuzz_u32(in);
            memcpy(at, &v, sizeof v);
        } else if (f->k == SCALAR) {
            uint64_t v = fuzz_u64(in);
            memcpy(at, &v, sizeof v);
        } else if (f->k == VALUE) {
            const void *p = NULL;
            if (fuzz_u8(in) & 1) {
                for (int i = 0; i < 2; ++i) {
                    uint64_t v = fuzz_u64(in);
                    memcpy(s->value + 8 * i, &v, sizeof v);
                }
                p = s->value;
            }
            memcpy(at, &p, sizeof p);
        } else if (f->k == FUSED) {
            const DML_OPERATOR_DESC *p = decode_fused(in, s, tensors);
            memcpy(at, &p, sizeof p);
        } else if (f->k == SCALE_BIAS) {
            const DML_SCALE_BIAS *sb = NULL;
            if (fuzz_u8(in) & 1) {
                uint32_t bits[2];
                bits[0] = fuzz_u32(in);
                bits[1] = fuzz_u32(in);
                memcpy(&s->scale_bias, bits, sizeof bits);
                sb = &s->scale_bias;
            }
            memcpy(at, &sb, sizeof sb);
        } else {
            decode_list(in, s, lists++, f, s->desc);
        }
    }
    *op = (DML_OPERATOR_DESC){sc->type, s->desc};
    return 0;
}

void fuzz_decode_operator(fuzz_in *in, unsigned slot, DML_OPERATOR_DESC *op)
{
    static _Thread_local storage pool[FUZZ_OPERATOR_SLOTS];
    decode(in, &pool[slot % FUZZ_OPERATOR_SLOTS], op);
}

int fuzz_operators(const uint8_t *data, size_t size, char *why, unsigned *accepted)
{
    fuzz_in in = {data, size};
    static _Thread_local storage s;
    DML_OPERATOR_DESC desc;
    decode(&in, &s, &desc);
    dmlcl_operator *op = NULL;
    HRESULT hr = dmlcl_operator_create(NULL, &desc, &op);
    dmlcl_operator_release(op);
    if (FAILED(hr)) {
        /* A failure always explains itself. */
        if (!dmlcl_last_error()[0]) {
            snprintf(why, FUZZ_WHY, "operator type %d: %s with no message", (int)desc.Type,
                     dmlcl_hresult_name(hr));
            return 1;
        }
        return 0;
    }
    if (accepted)
        ++*accepted;
    return fuzz_check_plan(&desc, why);
}

/* ---- Encoding (seeds) ------------------------------------------------------------------ */

static void encode_tensor(fuzz_out *out, const DML_TENSOR_DESC *t)
{
    const DML_BUFFER_TENSOR_DESC *b = t && t->Desc ? t->Desc : NULL;
    fuzz_put_u8(out, b != NULL);
    if (!b)
        return;
    uint32_t rank = b->DimensionCount > MAX_DIMS ? MAX_DIMS : b->DimensionCount;
    fuzz_put_u32(out, (uint32_t)b->DataType);
    fuzz_put_u32(out, (uint32_t)b->Flags);
    fuzz_put_u32(out, b->DimensionCount);
    for (uint32_t i = 0; i < rank; ++i)
        fuzz_put_u32(out, b->Sizes[i]);
    fuzz_put_u8(out, b->Strides != NULL);
    for (uint32_t i = 0; b->Strides && i < rank; ++i)
        fuzz_put_u32(out, b->Strides[i]);
    uint64_t exact = DMLCalcBufferTensorSize(b->DataType, rank, b->Sizes, b->Strides);
    fuzz_put_u8(out, exact == b->TotalTensorSizeInBytes ? 0 : 2);
    if (exact != b->TotalTensorSizeInBytes)
        fuzz_put_u64(out, b->TotalTensorSizeInBytes);
    fuzz_put_u32(out, b->GuaranteedBaseOffsetAlignment);
}

static void encode_list(fuzz_out *out, const field *f, const unsigned char *desc)
{
    UINT count;
    const void *list;
    memcpy(&count, desc + f->count, sizeof count);
    memcpy(&list, desc + f->at, sizeof list);
    fuzz_put_u8(out, list != NULL);
    for (UINT i = 0; list && i < count && i < MAX_LIST; ++i) {
        if (f->k == LIST_I64)
            fuzz_put_i64(out, ((const int64_t *)list)[i]);
        else if (f->k == LIST_I32)
            fuzz_put_i64(out, ((const int32_t *)list)[i]);
        else
            fuzz_put_i64(out, ((const uint32_t *)list)[i]);
    }
}

static void encode_fused(fuzz_out *out, const DML_OPERATOR_DESC *p)
{
    fuzz_put_u8(out, p != NULL);
    if (!p)
        return;
    size_t k = 0;
    while (k < N_FUSED_TYPES && fused_types[k] != p->Type)
        ++k;
    fuzz_put_u8(out, k < N_FUSED_TYPES ? (uint8_t)k : 0x80);
    if (k == N_FUSED_TYPES)
        fuzz_put_u32(out, (uint32_t)p->Type);
    const fused_layout *d = p->Desc;
    fuzz_put_u8(out, d != NULL);
    if (!d)
        return;
    encode_tensor(out, d->InputTensor);
    encode_tensor(out, d->OutputTensor);
    fuzz_put_u32(out, d->param[0]);
    fuzz_put_u32(out, d->param[1]);
}

size_t fuzz_encode_operator(const DML_OPERATOR_DESC *op, uint8_t *buf, size_t cap)
{
    fuzz_out out = {buf, 0, cap, false};
    size_t k = 0;
    while (k < N_SCHEMAS && schemas[k].type != op->Type)
        ++k;
    if (k == N_SCHEMAS || !op->Desc)
        return 0;
    if (k < N_PLAIN) {
        fuzz_put_u8(&out, (uint8_t)k);
    } else if (k - N_PLAIN < N_ESCAPED || N_SCHEMAS - N_PLAIN <= N_ESCAPED) {
        fuzz_put_u8(&out, (uint8_t)(0xF0 + (k - N_PLAIN)));
    } else {
        fuzz_put_u8(&out, 0xFF);
        fuzz_put_u8(&out, (uint8_t)(k - N_PLAIN - N_ESCAPED));
    }
    const unsigned char *desc = op->Desc;
    uint32_t element = 0; /* the first tensor's element size, for VALUE */
    for (const field *f = schemas[k].f; f < schemas[k].f + 12 && f->k != END; ++f) {
        if (f->k == TENSOR) {
            const DML_TENSOR_DESC *t;
            memcpy(&t, desc + f->at, sizeof t);
            encode_tensor(&out, t);
            const DML_BUFFER_TENSOR_DESC *b = t && t->Desc ? t->Desc : NULL;
            if (b && !element)
                element = dmli_type_size(b->DataType);
        } else if (f->k == SCALAR) {
            uint64_t v;
            memcpy(&v, desc + f->at, sizeof v);
            fuzz_put_u64(&out, v);
        } else if (f->k == VALUE) {
            const void *p;
            memcpy(&p, desc + f->at, sizeof p);
            fuzz_put_u8(&out, p != NULL);
            uint64_t v[2] = {0, 0};
            if (p)
                memcpy(v, p, element < sizeof v ? element : sizeof v);
            for (int i = 0; p && i < 2; ++i)
                fuzz_put_u64(&out, v[i]);
        } else if (f->k == TENSOR_LIST) {
            UINT count;
            const DML_TENSOR_DESC *list;
            memcpy(&count, desc + f->count, sizeof count);
            memcpy(&list, desc + f->at, sizeof list);
            fuzz_put_u8(&out, list != NULL);
            for (UINT i = 0; list && i < count && i < MAX_LIST_TENSORS; ++i)
                encode_tensor(&out, &list[i]);
        } else if (f->k == U32) {
            UINT v;
            memcpy(&v, desc + f->at, sizeof v);
            fuzz_put_u32(&out, v);
        } else if (f->k == FUSED) {
            const DML_OPERATOR_DESC *p;
            memcpy(&p, desc + f->at, sizeof p);
            encode_fused(&out, p);
        } else if (f->k == SCALE_BIAS) {
            const DML_SCALE_BIAS *sb;
            memcpy(&sb, desc + f->at, sizeof sb);
            fuzz_put_u8(&out, sb != NULL);
            uint32_t bits[2] = {0, 0};
            if (sb)
                memcpy(bits, sb, sizeof bits);
            for (int i = 0; sb && i < 2; ++i)
                fuzz_put_u32(&out, bits[i]);
        } else {
            encode_list(&out, f, desc);
        }
    }
    return out.full ? 0 : out.n;
}
