# SPDX-License-Identifier: MIT
"""Writes conformance/cases/onnx-node/*.json (one file per ONNX operator) and
conformance/cases/onnx-node/README.md: ONNX's backend node tests for the ONNX operators that
map onto DirectML's element-wise operators and activations, as DirectML-operator cases.

The test data is ONNX's, read at generation time from the installed `onnx` package: up to
onnx 1.22 the wheel ships onnx/backend/test/data/node/test_*/ (model.onnx,
test_data_set_*/input_*.pb, output_*.pb), which this script reads; from 1.23 on (onnx PR
#7959) the wheel builds the same tests in memory, and this script reads them through
`onnx.backend.test.loader.load_model_tests(kind="node")`. Either way the inputs and the
expected outputs are ONNX's own values, never recomputed here.

A test converts when its model is one node of a mapped operator. The mapping:
- Add, Sub, Mul, Div, Pow, Mod (fmod 0: MODULUS_FLOOR, 1: MODULUS_TRUNCATE), Max, Min,
  Mean of two inputs, the comparisons (LOGICAL_EQUALS ... into UINT8), And, Or, Xor, Not
  (LOGICAL_*), BitwiseAnd/Or/Xor/Not (BIT_*), BitShift (direction LEFT/RIGHT: BIT_SHIFT_LEFT
  or _RIGHT), IsNaN, IsInf (detect_positive/detect_negative: InfinityMode EITHER, POSITIVE,
  NEGATIVE), Where (ELEMENT_WISE_IF), Cast (CAST), the unary math (ABS, NEGATE, EXP, LOG, SQRT,
  RECIP, CEIL, FLOOR, ROUND with HALVES_TO_NEAREST_EVEN, SIGN, the trigonometric and
  hyperbolic functions, ERF);
- the activations: Relu, LeakyRelu (alpha: Alpha), Elu (alpha: Alpha), Selu (alpha, gamma:
  SCALED_ELU's Alpha, Gamma), Celu (alpha: Alpha), Gelu (approximate "none"), Sigmoid, Tanh,
  HardSigmoid (alpha, beta), HardSwish (Alpha 1/6, Beta 1/2), Softplus (Steepness 1),
  Softsign, ThresholdedRelu (alpha), Shrink (bias: Bias, lambd: Threshold), PRelu
  (PARAMETERIZED_RELU, slope as SlopeTensor);
- Clip's min and max inputs: CLIP's FLOAT Min and Max on FLOAT32 (an absent bound -inf or
  inf), CLIP1's typed Min and Max of the tensor's type otherwise (an absent bound the type's
  extreme).
- BatchNormalization as BATCH_NORMALIZATION, the per-channel scale, B, mean and var reshaped
  to {1, C, 1, ...}; with training_mode 1 as BATCH_NORMALIZATION_TRAINING (scale and B
  reshaped, Y only: ONNX's running_mean and running_var blend input_mean and input_var by
  momentum and are not DirectML's outputs, the batch's mean and variance); CumSum (exclusive, reverse; the axis input,
  negative counted from the end) as CUMULATIVE_SUMMATION; TopK (largest, sorted 1 only; axis
  negative counted from the end) as TOP_K1, ONNX's INT64 indices as UINT64 (the same values,
  never negative); LRN as LOCAL_RESPONSE_NORMALIZATION across channels (size: LocalSize): the
  converters of EXTRA (convert_bnscan).
- the normalising operators (convert_normalize): Softmax, LogSoftmax, Hardmax (ACTIVATION_*1,
  Axes {axis} from opset 13, {axis, ..., rank - 1} before), LayerNormalization
  (MEAN_VARIANCE_NORMALIZATION2, Y only), MeanVarianceNormalization
  (MEAN_VARIANCE_NORMALIZATION1), LpNormalization (LP_NORMALIZATION).
- Resize and Upsample (convert_resample) as RESAMPLE2 (antialias: RESAMPLE3 with Antialiased
  TRUE), ONNX Runtime's DirectML provider's mapping (DmlOperatorResize.cpp): each
  coordinate_transformation_mode's pixel offsets and scale per axis, nearest_mode as
  RoundingDirection and an input offset; cubic, exclude_outside and extrapolation_value are
  skipped (the provider does not map them).
- Reductions (convert_reduce, REDUCE_OPS): ReduceSum, ReduceMean (AVERAGE), ReduceMax,
  ReduceMin, ReduceProd (MULTIPLY), ReduceL1, ReduceL2, ReduceLogSum, ReduceLogSumExp,
  ReduceSumSquare as DML_OPERATOR_REDUCE, ArgMax and ArgMin as DML_OPERATOR_ARGMAX and _ARGMIN.
  Axes come from the attribute or the second input, negative ones normalised; no axes reduce
  every axis, or none with noop_with_empty_axes (AxisCount 0); ArgMax's and ArgMin's axis is
  one axis, select_last_index their AxisDirection (DECREASING). keepdims=0 keeps DirectML's
  output rank (the reduced axes of size 1): the data is the same. Float sums take the
  function's ULPs and an absolute bound n 2^-23 sum|terms| per row (ONNX's expected values are
  float32 sums themselves).
- Gemm and MatMul as DML_OPERATOR_GEMM (convert_gemm), as ONNX Runtime's DirectML provider
  lowers them: Gemm's C broadcast to the output's {M, N} by zero strides (absent: no CTensor);
  MatMul's 1-D operands promoted ({1, K} and {K, 1}, the output's promoted dimension kept),
  its batch dimensions broadcast by zero strides, Alpha 1, Beta 0. Tolerance 2K + 2 ULP or
  within (K + 3) 2^-23 sum|terms| (ONNX's expected values are float32 products themselves).
- Pooling (convert_pool): MaxPool as MAX_POOLING (MAX_POOLING2 with Indices or dilations),
  AveragePool as AVERAGE_POOLING (count_include_pad: IncludePadding; AVERAGE_POOLING1 with
  dilations), LpPool as LP_POOLING (p: P; LP_POOLING1 with dilations), GlobalMaxPool and
  GlobalAveragePool as MAX_POOLING and AVERAGE_POOLING with the window the whole spatial size
  (ONNX Runtime's DirectML provider's mapping); pads or auto_pad's SAME split as StartPadding
  and EndPadding, ceil_mode's sizes those of the expected output, 1-D pooling on {N, C, 1, W},
  Indices (INT64) as UINT64; storage_order 1 skipped.
- Scatter (opset 9 and 10), ScatterElements and ScatterND (convert_scatter) as
  DML_OPERATOR_SCATTER_ELEMENTS (axis normalised) and DML_OPERATOR_SCATTER_ND
  (InputDimensionCount and IndicesDimensionCount the ONNX ranks), every tensor padded with
  leading 1s to the largest rank, as ONNX Runtime's DirectML provider maps them
  (DmlOperatorScatter.cpp); INT64 indices kept (negative ones count from the end); a reduction
  other than "none" is skipped (DirectML's scatters have none).
- Conv and ConvTranspose (convert_conv) as DML_OPERATOR_CONVOLUTION, CROSS_CORRELATION,
  FORWARD and BACKWARD, as ONNX Runtime's DirectML provider maps them (DmlOperatorConvolution,
  OperatorHelper's ConvolutionHelperBase): pads as StartPadding / EndPadding; auto_pad SAME_UPPER
  and SAME_LOWER resolved to them (the extra padding at the end, or the start); ConvTranspose's
  output_padding and output_shape not as OutputPadding (0) but as the output's larger size
  (output_shape: pads recomputed from it, (in - 1) x stride + kernel - out split by auto_pad);
  B as {1, C, 1...}. Tolerance 2 x taps ULP or the absolute bound of a float32 sum.
- RoiAlign (convert_roialign) as DML_OPERATOR_ROI_ALIGN1 and Col2Im (convert_col2im) as
  DML_OPERATOR_FOLD, ONNX Runtime's DirectML provider's mappings (mode "max" skipped: ONNX's
  reference and DirectML reduce different values, docs/operators.md).
- QuantizeLinear and DequantizeLinear (convert_quant) as ELEMENT_WISE_QUANTIZE_LINEAR and
  _DEQUANTIZE_LINEAR, as ONNX Runtime's DirectML provider maps them (DmlOperatorElementwiseQLinear):
  a 1-D scale or zero point along `axis`, read by zero strides; an absent zero point absent.
  With block_size (convert_quant_blocked) as DML_OPERATOR_QUANTIZE and DEQUANTIZE (6.3): the
  axis split into {blocks, block_size}, the scale and zero point read with stride 0 over each
  block, as ONNX Runtime's DirectML provider builds blocked quantization. Exact.
- DynamicQuantizeLinear (convert_dynamic_quant) as DML_OPERATOR_DYNAMIC_QUANTIZE_LINEAR, the
  scale and zero point tensors of the input's rank. Exact.
- OneHot (convert_onehot) as DML_OPERATOR_ONE_HOT: IndicesTensor of the output's rank, size 1
  along the axis (negative axes normalised), ValuesTensor {off, on} as {1, ..., 2}; float
  indices that are whole numbers as INT64 (ONE_HOT takes integer indices; a provider casts);
  EyeLike (convert_eyelike) as DML_OPERATOR_DIAGONAL_MATRIX1 with no InputTensor, Value 1 of
  the output's type on the band [k, k + 1). Exact.
- RNN, GRU and LSTM (convert_rnn) as DML_OPERATOR_RNN, _GRU and _LSTM in DirectML's layouts
  (conformance/gen/rnn.py's): W, R, B, P and the states reshaped, sequence_lens as UINT32
  SequenceLengthsTensor, layout 1 (batch first) rearranged to sequence first (ONNX's values,
  moved), the activations by name (ONNX's defaults per direction); activation_alpha/beta and
  clip skipped. Tolerance seq x (K^2 2^-23 + 2^-10), K = input + hidden + 2.
- NonZero (convert_nonzero) as DML_OPERATOR_NONZERO_COORDINATES in ONNX Runtime's DirectML
  provider's form (DmlOperatorNonZero.cpp): the input at its own rank, OutputCountTensor {1},
  OutputCoordinatesTensor {M, rank} UINT32 with strides {2, 2M}; ONNX's {rank, count} INT64
  output is the expected coordinates' defined rows, transposed. ReverseSequence
  (convert_reverse_sequence) as DML_OPERATOR_REVERSE_SUBSEQUENCES (DmlOperatorReverseSequence.cpp):
  every tensor padded to 4 dimensions, the INT64 lengths along the batch axis with the input's
  sizes elsewhere (1 along the time axis), Axis the padded time axis. MaxUnpool
  (convert_maxunpool) as DML_OPERATOR_MAX_UNPOOLING (DmlOperatorMaxUnpool.cpp): the INT64
  indices as UINT64, the output's shape the expected output's (output_shape's). Exact.
- MatMulInteger, QLinearMatMul, ConvInteger, QLinearConv (convert_intmm) as
  MATRIX_MULTIPLY_INTEGER, QUANTIZED_LINEAR_MATRIX_MULTIPLY, CONVOLUTION_INTEGER and
  QUANTIZED_LINEAR_CONVOLUTION, in ONNX Runtime's DirectML provider's forms (A and B broadcast to
  the output's batch; a per-row [M] as {M, 1}, per-column [N] as {N}, per-channel [Cout] as
  {1, Cout, 1, 1}); FLOAT16 scales skipped (DirectML's tables: FLOAT32). Exact.
ONNX's bool is DirectML's UINT8 (0 or 1), the type of DirectML's logical operators. Numpy
broadcasting becomes DirectML's: every tensor takes the output's Sizes, ranks padded on the
left, and a broadcast dimension reads with stride 0. Float outputs are compared with the
runner's default tolerance for the operator (reference/precision.md, docs/operators.md);
a case that needs another says so in its `tolerance` and `note`.

Every other test of these operators is skipped and listed, with its reason, in the README
this script writes.

Run from the repository root with the venv's python (scripts/venv):
    .venv/bin/python conformance/gen/onnx_node_tests.py
"""
import glob
import os
import re
import sys
import warnings
from collections import Counter, defaultdict

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "scripts", "diff"))
sys.path.insert(0, HERE)  # conformance/gen/resample.py: the resampling model
from common import clear_out, jvalue, write  # noqa: E402

OUT = os.path.join(HERE, "..", "cases", "onnx-node")

F = ["FLOAT32", "FLOAT16"]
SINTS = ["INT8", "INT16", "INT32", "INT64"]
UINTS = ["UINT8", "UINT16", "UINT32", "UINT64"]
TEN = F + SINTS + UINTS
ELEVEN = ["FLOAT64"] + TEN
BOOL = ["BOOLEAN"]  # ONNX's bool, bound as UINT8 (the logical operators' type)

# TensorProto.DataType -> this format's type name (None: DirectML has no such type).
PROTO_TYPES = {1: "FLOAT32", 2: "UINT8", 3: "INT8", 4: "UINT16", 5: "INT16", 6: "INT32",
               7: "INT64", 9: "BOOLEAN", 10: "FLOAT16", 11: "FLOAT64", 12: "UINT32",
               13: "UINT64"}
PROTO_NAMES = {0: "UNDEFINED", 8: "STRING", 14: "COMPLEX64", 15: "COMPLEX128", 16: "BFLOAT16",
               17: "FLOAT8E4M3FN", 18: "FLOAT8E4M3FNUZ", 19: "FLOAT8E5M2",
               20: "FLOAT8E5M2FNUZ", 21: "UINT4", 22: "INT4", 23: "FLOAT4E2M1",
               24: "FLOAT8E8M0", 25: "UINT2", 26: "INT2"}
NP_TYPES = {"float16": "FLOAT16", "float32": "FLOAT32", "float64": "FLOAT64", "int8": "INT8",
            "int16": "INT16", "int32": "INT32", "int64": "INT64", "uint8": "UINT8",
            "uint16": "UINT16", "uint32": "UINT32", "uint64": "UINT64", "bool": "BOOLEAN"}
NP_OF = {"FLOAT16": np.float16, "FLOAT32": np.float32, "FLOAT64": np.float64, "INT8": np.int8,
         "INT16": np.int16, "INT32": np.int32, "INT64": np.int64, "UINT8": np.uint8,
         "UINT16": np.uint16, "UINT32": np.uint32, "UINT64": np.uint64}

# ONNX operator -> (DirectML operator, its input members, its type table). Operators whose
# descriptor depends on attributes or inputs are finished in convert().
BINARY = ("ATensor", "BTensor")
UNARY = ("InputTensor",)
EW = "DML_OPERATOR_ELEMENT_WISE_"
ACT = "DML_OPERATOR_ACTIVATION_"
OPS = {
    "Add": (EW + "ADD", BINARY, TEN), "Sub": (EW + "SUBTRACT", BINARY, TEN),
    "Mul": (EW + "MULTIPLY", BINARY, TEN), "Div": (EW + "DIVIDE", BINARY, TEN),
    "Max": (EW + "MAX", BINARY, TEN), "Min": (EW + "MIN", BINARY, TEN),
    "Mean": (EW + "MEAN", BINARY, ["FLOAT32", "FLOAT16", "INT32", "UINT32"]),
    "Pow": (EW + "POW", ("InputTensor", "ExponentTensor"),
            F + ["INT8", "INT16", "INT32", "UINT8", "UINT16", "UINT32"]),
    "Mod": (None, BINARY, TEN),
    "Abs": (EW + "ABS", UNARY, F + SINTS), "Neg": (EW + "NEGATE", UNARY, F + SINTS),
    "Exp": (EW + "EXP", UNARY, F), "Log": (EW + "LOG", UNARY, F),
    "Sqrt": (EW + "SQRT", UNARY, F), "Reciprocal": (EW + "RECIP", UNARY, F),
    "Ceil": (EW + "CEIL", UNARY, F), "Floor": (EW + "FLOOR", UNARY, F),
    "Round": (EW + "ROUND", UNARY, F), "Sign": (EW + "SIGN", UNARY, TEN),
    "Sin": (EW + "SIN", UNARY, F), "Cos": (EW + "COS", UNARY, F), "Tan": (EW + "TAN", UNARY, F),
    "Asin": (EW + "ASIN", UNARY, F), "Acos": (EW + "ACOS", UNARY, F),
    "Atan": (EW + "ATAN", UNARY, F), "Sinh": (EW + "SINH", UNARY, F),
    "Cosh": (EW + "COSH", UNARY, F), "Asinh": (EW + "ASINH", UNARY, F),
    "Acosh": (EW + "ACOSH", UNARY, F), "Atanh": (EW + "ATANH", UNARY, F),
    "Erf": (EW + "ERF", UNARY, F),
    "Tanh": (ACT + "TANH", UNARY, F), "Sigmoid": (ACT + "SIGMOID", UNARY, F),
    "Relu": (ACT + "RELU", UNARY, F + ["INT32", "INT16", "INT8"]),
    "LeakyRelu": (ACT + "LEAKY_RELU", UNARY, F), "Elu": (ACT + "ELU", UNARY, F),
    "Selu": (ACT + "SCALED_ELU", UNARY, F), "Celu": (ACT + "CELU", UNARY, F),
    "Gelu": (ACT + "GELU", UNARY, F), "HardSigmoid": (ACT + "HARD_SIGMOID", UNARY, F),
    "HardSwish": (ACT + "HARD_SWISH", UNARY, F), "Softplus": (ACT + "SOFTPLUS", UNARY, F),
    "Softsign": (ACT + "SOFTSIGN", UNARY, F),
    "ThresholdedRelu": (ACT + "THRESHOLDED_RELU", UNARY, F),
    "Shrink": (ACT + "SHRINK", UNARY, F + ["INT32", "INT16", "INT8", "UINT32", "UINT16",
                                           "UINT8"]),
    "PRelu": (ACT + "PARAMETERIZED_RELU", ("InputTensor", "SlopeTensor"),
              F + ["INT32", "INT16", "INT8"]),
    "Clip": (None, UNARY, TEN),
    "BitShift": (None, BINARY, UINTS),
    "BitwiseAnd": (EW + "BIT_AND", BINARY, ELEVEN), "BitwiseOr": (EW + "BIT_OR", BINARY, ELEVEN),
    "BitwiseXor": (EW + "BIT_XOR", BINARY, ELEVEN), "BitwiseNot": (EW + "BIT_NOT", UNARY, ELEVEN),
    "And": (EW + "LOGICAL_AND", BINARY, BOOL), "Or": (EW + "LOGICAL_OR", BINARY, BOOL),
    "Xor": (EW + "LOGICAL_XOR", BINARY, BOOL), "Not": (EW + "LOGICAL_NOT", UNARY, BOOL),
    "Equal": (EW + "LOGICAL_EQUALS", BINARY, TEN),
    "Greater": (EW + "LOGICAL_GREATER_THAN", BINARY, TEN),
    "Less": (EW + "LOGICAL_LESS_THAN", BINARY, TEN),
    "GreaterOrEqual": (EW + "LOGICAL_GREATER_THAN_OR_EQUAL", BINARY, TEN),
    "LessOrEqual": (EW + "LOGICAL_LESS_THAN_OR_EQUAL", BINARY, TEN),
    "IsNaN": (EW + "IS_NAN", UNARY, F), "IsInf": (EW + "IS_INFINITY", UNARY, F),
    "Where": (EW + "IF", ("ConditionTensor", "ATensor", "BTensor"), ELEVEN),
    "Cast": ("DML_OPERATOR_CAST", UNARY, ELEVEN),
}

# Attribute defaults of the ONNX operators (their FLOAT32 values).
DEFAULTS = {"LeakyRelu": {"alpha": 0.01}, "Elu": {"alpha": 1.0},
            "Selu": {"alpha": 1.67326319217681884765625, "gamma": 1.05070102214813232421875},
            "Celu": {"alpha": 1.0}, "HardSigmoid": {"alpha": 0.2, "beta": 0.5},
            "ThresholdedRelu": {"alpha": 1.0}, "Shrink": {"bias": 0.0, "lambd": 0.5},
            "Mod": {"fmod": 0}, "IsInf": {"detect_positive": 1, "detect_negative": 1},
            "Gelu": {"approximate": "none"}}

# Tests converted on purpose with another tolerance than the operator's default, and why.
TOLERANCE = {}

# Tests whose ONNX semantics differ from DirectML's documented semantics (skipped).
SEMANTICS = {
    "test_clip_min_greater_than_max":
        "semantics: ONNX Clip gives max where min > max (min(max(x, min), max)); DirectML's "
        "CLIP and CLIP1 are documented as f(x) = max(Min, min(x, Max)), which gives Min",
}


class Skip(Exception):
    pass


# ONNX operators converted by their own function (name -> convert(name, model, sets, where)),
# beside OPS's element-wise mapping; each family's section adds its entries.
EXTRA = {}


def f32(v):
    return float(np.float32(v))


# ---------------------------------------------------------------------------------------
# Reading ONNX's tests


def load_tests(root=None):
    """(name, model, [(inputs, outputs)], where) per node test; the arrays or TensorProtos as
    the installed onnx has them, or the serialized tests under root."""
    import onnx

    if root is None:
        root = os.path.join(os.path.dirname(onnx.__file__), "backend", "test", "data", "node")
    if os.path.isdir(root):  # onnx <= 1.22: the serialized tests
        for d in sorted(glob.glob(os.path.join(root, "test_*"))):
            model = onnx.load(os.path.join(d, "model.onnx"))
            sets = []
            for s in sorted(glob.glob(os.path.join(d, "test_data_set_*"))):
                def read(kind):
                    files = sorted(glob.glob(os.path.join(s, kind + "_*.pb")),
                                   key=lambda p: int(re.findall(r"_(\d+)\.pb$", p)[0]))
                    out = []
                    for p in files:
                        t = onnx.TensorProto()
                        with open(p, "rb") as fh:
                            t.ParseFromString(fh.read())
                        out.append(t)
                    return out
                sets.append((read("input"), read("output")))
            yield os.path.basename(d), model, sets, "data/node/" + os.path.basename(d)
        return
    from onnx.backend.test.loader import load_model_tests

    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore")
        tests = load_model_tests(kind="node")
    for t in tests:
        yield t.name, t.model, t.data_sets, "load_model_tests(kind=\"node\")"


def to_array(v):
    """(type name, numpy array) of a data-set value; Skip for a type DirectML lacks."""
    from onnx import TensorProto, numpy_helper

    if isinstance(v, TensorProto):
        if v.data_type not in PROTO_TYPES:
            raise Skip("type: DirectML has no {} tensors".format(
                PROTO_NAMES.get(v.data_type, str(v.data_type))))
        a = numpy_helper.to_array(v)
        return PROTO_TYPES[v.data_type], np.asarray(a)
    if isinstance(v, np.generic):  # a 0-D value (Clip's min and max)
        v = np.asarray(v)
    if not isinstance(v, np.ndarray):
        raise Skip("type: a {} value, not a tensor".format(type(v).__name__))
    name = NP_TYPES.get(str(v.dtype))
    if name is None:
        kind = "STRING" if v.dtype == object or v.dtype.kind in "SU" else str(v.dtype).upper()
        raise Skip("type: DirectML has no {} tensors".format(kind))
    return name, v


# ---------------------------------------------------------------------------------------
# Writing cases


def dml_type(t):
    return "UINT8" if t == "BOOLEAN" else t


def case_tensor(t, a, out_shape=None):
    """A case tensor of ONNX type t holding a, broadcast to out_shape by zero strides."""
    t = dml_type(t)
    a = np.asarray(a)
    if a.dtype == np.bool_:
        a = a.astype(np.uint8)
    a = a.astype(NP_OF[t])
    shape = list(a.shape) if out_shape is None else list(out_shape)
    if not shape:
        shape = [1]
    src = [1] * (len(shape) - a.ndim) + list(a.shape)
    if len(src) > len(shape):
        raise Skip("shape: an input of higher rank than the output")
    a = a.reshape(src) if src else a.reshape([1])
    data = np.broadcast_to(a, shape)
    tensor = {"type": t, "shape": shape,
              "data": [jvalue(t, v) for v in data.reshape(-1).tolist()]}
    if src != shape:
        strides, step = [0] * len(shape), 1
        for i in reversed(range(len(shape))):
            strides[i] = 0 if src[i] == 1 and shape[i] != 1 else step
            step *= src[i]
        tensor["strides"] = strides
    return tensor


def opset_of(model, op):
    from onnx import defs

    v = next((o.version for o in model.opset_import if o.domain in ("", "ai.onnx")), None)
    try:
        return defs.get_schema(op, v).since_version
    except Exception:  # noqa: BLE001 - an unknown schema keeps the model's opset
        return v


def attrs_of(node):
    from onnx import helper

    got = {}
    for a in node.attribute:
        v = helper.get_attribute_value(a)
        got[a.name] = v.decode() if isinstance(v, bytes) else v
    return got


def convert(name, model, sets, where):
    g = model.graph
    node = g.node[0]
    op = node.op_type
    dml, members, table = OPS[op]
    attrs = dict(DEFAULTS.get(op, {}))
    attrs.update(attrs_of(node))
    if name in SEMANTICS:
        raise Skip(SEMANTICS[name])
    if len(sets) != 1:
        raise Skip("data: {} data sets".format(len(sets)))
    ins, outs = sets[0]
    index = {vi.name: i for i, vi in enumerate(g.input)}
    values = {}
    for n in node.input:
        if n:
            values[n] = to_array(ins[index[n]])
    if len(outs) != 1 or len(node.output) != 1:
        raise Skip("outputs: {} outputs".format(len(outs)))
    out_t, out_a = to_array(outs[0])
    out_shape = list(out_a.shape) or [1]
    if len(out_shape) > 8:
        raise Skip("shape: {} dimensions; DirectML tensors have 1 to 8".format(len(out_shape)))
    if 0 in out_shape:
        raise Skip("shape: an empty tensor; DirectML sizes are at least 1")
    inputs = [values[n] if n else None for n in node.input]
    data_inputs = [v for v in inputs if v is not None]
    note = "ONNX {}-{} as {}".format(op, opset_of(model, op), "{}")
    dml_attrs = {}
    extra = []

    if op in ("Max", "Min", "Mean"):
        if len(data_inputs) != 2:
            raise Skip("variadic: {} with {} input{}; DirectML's {} takes two".format(
                op, len(data_inputs), "s" if len(data_inputs) != 1 else "",
                dml.replace("DML_OPERATOR_", "")))
    elif op == "Mod":
        dml = EW + ("MODULUS_TRUNCATE" if attrs["fmod"] else "MODULUS_FLOOR")
        extra.append("fmod={}".format(attrs["fmod"]))
    elif op == "BitShift":
        dml = EW + "BIT_SHIFT_" + attrs["direction"]
        extra.append("direction " + attrs["direction"])
    elif op == "IsInf":
        p, n = attrs["detect_positive"], attrs["detect_negative"]
        if not p and not n:
            raise Skip("attribute: IsInf detecting neither infinity has no InfinityMode")
        dml_attrs["InfinityMode"] = 0 if p and n else 1 if p else 2
        extra.append("detect_positive={} detect_negative={}: InfinityMode {}".format(
            p, n, ["EITHER", "POSITIVE", "NEGATIVE"][dml_attrs["InfinityMode"]]))
    elif op == "Gelu":
        if attrs["approximate"] != "none":
            raise Skip("attribute: Gelu approximate=\"{}\"; DirectML's GELU is the erf form "
                       "only".format(attrs["approximate"]))
    elif op == "Round":
        dml_attrs["RoundingMode"] = "DML_ROUNDING_MODE_HALVES_TO_NEAREST_EVEN"
    elif op in ("LeakyRelu", "Elu", "Celu", "ThresholdedRelu"):
        dml_attrs["Alpha"] = f32(attrs["alpha"])
    elif op == "Selu":
        dml_attrs["Alpha"] = f32(attrs["alpha"])
        dml_attrs["Gamma"] = f32(attrs["gamma"])
    elif op == "HardSigmoid":
        dml_attrs["Alpha"] = f32(attrs["alpha"])
        dml_attrs["Beta"] = f32(attrs["beta"])
    elif op == "HardSwish":
        dml_attrs["Alpha"] = f32(1 / 6)
        dml_attrs["Beta"] = 0.5
    elif op == "Softplus":
        dml_attrs["Steepness"] = 1.0
    elif op == "Shrink":
        dml_attrs["Bias"] = f32(attrs["bias"])
        dml_attrs["Threshold"] = f32(attrs["lambd"])
    elif op == "Cast":
        extra.append("to " + out_t)
    elif op == "Clip":
        t = inputs[0][0]
        lo = inputs[1] if len(inputs) > 1 else None
        hi = inputs[2] if len(inputs) > 2 else None
        if t == "FLOAT32":
            dml = EW + "CLIP"
            dml_attrs["Min"] = jvalue(t, lo[1].reshape(-1)[0]) if lo else "-inf"
            dml_attrs["Max"] = jvalue(t, hi[1].reshape(-1)[0]) if hi else "inf"
        else:
            dml = EW + "CLIP1"
            if t.startswith("FLOAT"):
                ext = (-np.inf, np.inf)
            else:
                info = np.iinfo(NP_OF[t])
                ext = (int(info.min), int(info.max))
            dml_attrs["MinMaxDataType"] = t
            dml_attrs["Min"] = jvalue(t, lo[1].reshape(-1)[0] if lo else ext[0])
            dml_attrs["Max"] = jvalue(t, hi[1].reshape(-1)[0] if hi else ext[1])
        extra.append("min {} max {}".format(dml_attrs["Min"], dml_attrs["Max"]))
        data_inputs = data_inputs[:1]

    # Types: every tensor of the operator in DirectML's table for it.
    if op == "Where" and inputs[0][0] != "BOOLEAN":
        raise Skip("type: Where's condition is not bool")
    for t, _ in data_inputs[1:] if op == "Where" else data_inputs:
        if t not in table:
            raise Skip("type table: {} is not in {}'s type table".format(
                t, dml.replace("DML_OPERATOR_", "")))
    if op == "Cast" and out_t not in table:
        raise Skip("type table: {} is not in CAST's type table".format(out_t))
    if len(data_inputs) != len(members):
        raise Skip("inputs: {} inputs for {} members".format(len(data_inputs), len(members)))

    case_inputs = {}
    broadcast = []
    for m, (t, a) in zip(members, data_inputs):
        ct = case_tensor(t, a, out_shape)
        if "strides" in ct or list(np.shape(a)) != out_shape:
            broadcast.append("{} {} as {}".format(m, list(np.shape(a)), ct.get("strides")))
        case_inputs[m] = ct
    expected = case_tensor(out_t, out_a)
    expected["shape"] = out_shape
    c = {"name": "onnx-node." + name[5:] if name.startswith("test_") else "onnx-node." + name,
         "source": "onnx:{}-{}#{}".format(op, opset_of(model, op), name),
         "op": dml}
    if dml_attrs:
        c["attrs"] = dml_attrs
    c["inputs"] = case_inputs
    c["expected"] = {"outputs": {"OutputTensor": expected}}
    if name in TOLERANCE:
        tol, why = TOLERANCE[name]
        c["tolerance"] = tol
        extra.append(why)
    if broadcast:
        extra.append("numpy broadcasting by zero strides: " + ", ".join(broadcast))
    if "BOOLEAN" in [t for t, _ in data_inputs] + [out_t]:
        extra.append("bool as UINT8")
    c["note"] = note.format(dml) + ("; " + "; ".join(extra) if extra else "") + \
        " (ONNX's backend node test {}, {})".format(name, where)
    return op, c


# ---------------------------------------------------------------------------------------
# BatchNormalization, CumSum, TopK


# BatchNormalization, CumSum and TopK tests converted with another tolerance, and why.
BNSCAN_TOLERANCE = {
    "test_batchnorm_epsilon":
        ({"ulp": 12}, "tolerance 12 ULP: ONNX's expected values are float32 arithmetic rounded "
         "step by step, up to 8 ULP from the exact result where the sum with B cancels "
         "(element [0,2,1,3]: exact -0.0741621261, ONNX -0.074162185)"),
}


def _bnscan_case(name, model, op, dml, attrs, inputs, outputs, extra, where):
    c = {"name": "onnx-node." + (name[5:] if name.startswith("test_") else name),
         "source": "onnx:{}-{}#{}".format(op, opset_of(model, op), name), "op": dml}
    if attrs:
        c["attrs"] = attrs
    c["inputs"] = inputs
    c["expected"] = {"outputs": outputs}
    if name in BNSCAN_TOLERANCE:
        c["tolerance"], why = BNSCAN_TOLERANCE[name]
        extra = extra + [why]
    c["note"] = "ONNX {}-{} as {}".format(op, opset_of(model, op), dml) + \
        ("; " + "; ".join(extra) if extra else "") + \
        " (ONNX's backend node test {}, {})".format(name, where)
    return c


def _bnscan_axis(axis, rank):
    if not -rank <= axis < rank:
        raise Skip("attribute: axis {} outside [-{}, {})".format(axis, rank, rank))
    return axis + rank if axis < 0 else axis


def convert_bnscan(name, model, sets, where):
    g = model.graph
    node = g.node[0]
    op = node.op_type
    attrs = attrs_of(node)
    if len(sets) != 1:
        raise Skip("data: {} data sets".format(len(sets)))
    ins, outs = sets[0]
    index = {vi.name: i for i, vi in enumerate(g.input)}
    values = [to_array(ins[index[n]]) if n else None for n in node.input]
    results = [to_array(o) for o in outs]
    x_t, x = values[0]
    if x.ndim > 8 or x.ndim == 0:
        raise Skip("shape: {} dimensions; DirectML tensors have 1 to 8".format(x.ndim))
    if 0 in x.shape:
        raise Skip("shape: an empty tensor; DirectML sizes are at least 1")
    extra = []
    if op == "BatchNormalization":
        if x_t not in F:
            raise Skip("type table: {} is not in BATCH_NORMALIZATION's type table".format(x_t))
        if x.ndim < 2:
            raise Skip("shape: BatchNormalization of rank {}".format(x.ndim))
        stat_shape = [1, x.shape[1]] + [1] * (x.ndim - 2)
        members = ["InputTensor", "ScaleTensor", "BiasTensor", "MeanTensor", "VarianceTensor"]
        inputs = {"InputTensor": case_tensor(x_t, x)}
        for m, (t, a) in zip(members[1:], values[1:5]):
            if t != x_t:
                raise Skip("type table: {} is {}, the input {}".format(m, t, x_t))
            inputs[m] = case_tensor(t, np.asarray(a).reshape(stat_shape))
        eps = f32(attrs.get("epsilon", 1e-5))
        if attrs.get("training_mode", 0):
            # The batch's statistics: Y is DirectML's Output; ONNX's running mean and variance
            # (momentum blends of input_mean and input_var) are not DirectML's outputs, whose
            # OutputMeanTensor and OutputVarianceTensor (the batch's own) go unchecked.
            del inputs["MeanTensor"], inputs["VarianceTensor"]
            for m in ["OutputMeanTensor", "OutputVarianceTensor"]:
                inputs[m] = {"type": x_t, "shape": stat_shape}
            extra.append("training_mode 1: scale and B of Sizes {}, Y only (running_mean and "
                         "running_var are momentum blends, not DirectML's outputs)"
                         .format(stat_shape))
            out_t, out_a = results[0]
            return op, _bnscan_case(name, model, op,
                                    "DML_OPERATOR_BATCH_NORMALIZATION_TRAINING",
                                    {"Epsilon": eps}, inputs,
                                    {"OutputTensor": case_tensor(out_t, out_a)}, extra, where)
        extra.append("scale, B, mean, var of Sizes {}".format(stat_shape))
        out_t, out_a = results[0]
        return op, _bnscan_case(name, model, op, "DML_OPERATOR_BATCH_NORMALIZATION",
                                {"Spatial": True, "Epsilon": eps}, inputs,
                                {"OutputTensor": case_tensor(out_t, out_a)}, extra, where)
    if op == "CumSum":
        if x_t not in ["FLOAT32", "FLOAT16", "INT64", "INT32", "UINT64", "UINT32"]:
            raise Skip("type table: {} is not in CUMULATIVE_SUMMATION's type table".format(x_t))
        axis = _bnscan_axis(int(np.asarray(values[1][1]).reshape(-1)[0]), x.ndim)
        excl, rev = int(attrs.get("exclusive", 0)), int(attrs.get("reverse", 0))
        extra.append("axis {}, exclusive {}, reverse {}".format(axis, excl, rev))
        out_t, out_a = results[0]
        return op, _bnscan_case(
            name, model, op, "DML_OPERATOR_CUMULATIVE_SUMMATION",
            {"Axis": axis, "AxisDirection": "DML_AXIS_DIRECTION_DECREASING" if rev
             else "DML_AXIS_DIRECTION_INCREASING", "HasExclusiveSum": bool(excl)},
            {"InputTensor": case_tensor(x_t, x)}, {"OutputTensor": case_tensor(out_t, out_a)},
            extra, where)
    if op == "TopK":
        if not attrs.get("sorted", 1):
            raise Skip("attribute: sorted 0 leaves the order open; DirectML's TOP_K sorts")
        if x_t not in TEN:
            raise Skip("type table: {} is not in TOP_K1's type table".format(x_t))
        axis = _bnscan_axis(int(attrs.get("axis", -1)), x.ndim)
        k = int(np.asarray(values[1][1]).reshape(-1)[0])
        largest = int(attrs.get("largest", 1))
        (v_t, v_a), (i_t, i_a) = results
        extra.append("axis {}, K {}, largest {}; Indices INT64 as UINT64".format(axis, k,
                                                                                largest))
        return op, _bnscan_case(
            name, model, op, "DML_OPERATOR_TOP_K1",
            {"Axis": axis, "K": k, "AxisDirection": "DML_AXIS_DIRECTION_DECREASING" if largest
             else "DML_AXIS_DIRECTION_INCREASING"},
            {"InputTensor": case_tensor(x_t, x)},
            {"OutputValueTensor": case_tensor(v_t, v_a),
             "OutputIndexTensor": case_tensor("UINT64", np.asarray(i_a).astype(np.uint64))},
            extra, where)
    if op == "LRN":
        if x_t not in F:
            raise Skip("type table: {} is not in LOCAL_RESPONSE_NORMALIZATION's type table".format(
                x_t))
        if x.ndim != 4:
            raise Skip("shape: LRN of rank {}; LOCAL_RESPONSE_NORMALIZATION takes 4".format(
                x.ndim))
        lrn = {"CrossChannel": True, "LocalSize": int(attrs["size"]),
               "Alpha": f32(attrs.get("alpha", 1e-4)), "Beta": f32(attrs.get("beta", 0.75)),
               "Bias": f32(attrs.get("bias", 1.0))}
        extra.append("across channels, LocalSize {}".format(lrn["LocalSize"]))
        out_t, out_a = results[0]
        return op, _bnscan_case(name, model, op, "DML_OPERATOR_LOCAL_RESPONSE_NORMALIZATION", lrn,
                                {"InputTensor": case_tensor(x_t, x)},
                                {"OutputTensor": case_tensor(out_t, out_a)}, extra, where)
    raise Skip("no converter for " + op)


EXTRA.update({"BatchNormalization": convert_bnscan, "CumSum": convert_bnscan,
              "TopK": convert_bnscan, "LRN": convert_bnscan})


# ---------------------------------------------------------------------------------------
# The normalising operators: Softmax, LogSoftmax, Hardmax, LayerNormalization,
# MeanVarianceNormalization, LpNormalization (reductions that keep the input's shape)

NORM_OPS = {
    "Softmax": ACT + "SOFTMAX1", "LogSoftmax": ACT + "LOG_SOFTMAX1",
    "Hardmax": ACT + "HARDMAX1", "LayerNormalization": "DML_OPERATOR_MEAN_VARIANCE_NORMALIZATION2",
    "MeanVarianceNormalization": "DML_OPERATOR_MEAN_VARIANCE_NORMALIZATION1",
    "LpNormalization": "DML_OPERATOR_LP_NORMALIZATION",
}


def norm_tensor(t, a, rank):
    """A packed case tensor of a, its shape padded with leading 1s to rank (DirectML's MVN
    broadcasts a scale or bias by its size-1 dimensions)."""
    t = dml_type(t)
    a = np.asarray(a).astype(NP_OF[t])
    shape = [1] * (rank - a.ndim) + list(a.shape)
    return {"type": t, "shape": shape or [1],
            "data": [jvalue(t, v) for v in a.reshape(-1).tolist()]}


def convert_normalize(name, model, sets, where):
    """One ONNX normalising node as a DirectML-operator case:
    - Softmax, LogSoftmax, Hardmax from opset 13: ACTIVATION_*1 with Axes {axis}; before 13
      (the input coerced to 2-D at axis): Axes {axis, ..., rank - 1};
    - LayerNormalization (Y only: MEAN_VARIANCE_NORMALIZATION2 has one output, so the test's
      Mean and InvStdDev are not compared): Axes {axis, ..., rank - 1}, UseMean and
      UseVariance TRUE, epsilon, Scale and B with leading 1s;
    - MeanVarianceNormalization: MEAN_VARIANCE_NORMALIZATION1 with its axes (default
      {0, 2, 3}), NormalizeVariance TRUE, Epsilon 1e-9 (ONNX adds 1e-9 to the standard
      deviation, DirectML to the variance under the root: equal within 1e-9 relative);
    - LpNormalization: LP_NORMALIZATION with Axis, P, Epsilon 1e-30 (ONNX divides by the norm
      and gives 0 for a zero row; max(norm, 1e-30) does both)."""
    g = model.graph
    node = g.node[0]
    op = node.op_type
    dml = NORM_OPS[op]
    attrs = attrs_of(node)
    opset = opset_of(model, op)
    if len(sets) != 1:
        raise Skip("data: {} data sets".format(len(sets)))
    ins, outs = sets[0]
    index = {vi.name: i for i, vi in enumerate(g.input)}
    inputs = [to_array(ins[index[n]]) if n else None for n in node.input]
    out_t, out_a = to_array(outs[0])
    x_t, x = inputs[0]
    rank = x.ndim
    if rank < 1 or rank > 8:
        raise Skip("shape: {} dimensions; DirectML tensors have 1 to 8".format(rank))
    if 0 in x.shape:
        raise Skip("shape: an empty tensor; DirectML sizes are at least 1")
    if x_t not in F:
        raise Skip("type table: {} is not in {}'s type table".format(
            x_t, dml.replace("DML_OPERATOR_", "")))
    case_inputs = {"InputTensor": case_tensor(x_t, x)}
    dml_attrs = {}
    extra = []
    if op in ("Softmax", "LogSoftmax", "Hardmax"):
        axis = attrs.get("axis", -1 if opset >= 13 else 1)
        axis = axis + rank if axis < 0 else axis
        axes = [axis] if opset >= 13 else list(range(axis, rank))
        dml_attrs["Axes"] = axes
        extra.append("axis {}: Axes {}".format(attrs.get("axis", "default"), axes) +
                     ("" if opset >= 13 else " (the input coerced to 2-D)"))
    elif op == "LayerNormalization":
        if len([n for n in node.output if n]) > 1:
            extra.append("Y only: the test's Mean and InvStdDev are not compared")
        axis = attrs.get("axis", -1)
        axis = axis + rank if axis < 0 else axis
        dml_attrs.update({"Axes": list(range(axis, rank)), "UseMean": True,
                          "UseVariance": True, "Epsilon": f32(attrs.get("epsilon", 1e-5))})
        for member, v in zip(("ScaleTensor", "BiasTensor"), inputs[1:3]):
            if v is not None:
                if v[0] != x_t:
                    raise Skip("type: {} of another type than X".format(member))
                case_inputs[member] = norm_tensor(v[0], v[1], rank)
        extra.append("axis {}: Axes {}".format(attrs.get("axis", "default"), dml_attrs["Axes"]))
    elif op == "MeanVarianceNormalization":
        axes = [a + rank if a < 0 else a for a in attrs.get("axes", [0, 2, 3])]
        dml_attrs.update({"Axes": axes, "NormalizeVariance": True, "Epsilon": f32(1e-9)})
        extra.append("axes {}; Epsilon 1e-9 under the root where ONNX adds it to the standard "
                     "deviation".format(axes))
    else:  # LpNormalization
        p = attrs.get("p", 2)
        if p not in (1, 2):
            raise Skip("attribute: p={}; LP_NORMALIZATION's P is 1 or 2".format(p))
        axis = attrs.get("axis", -1)
        axis = axis + rank if axis < 0 else axis
        dml_attrs.update({"Axis": axis, "P": p, "Epsilon": f32(1e-30)})
        extra.append("axis {} p {}; Epsilon 1e-30 (ONNX divides by the norm, a zero row giving "
                     "0)".format(axis, p))
    expected = case_tensor(out_t, out_a)
    c = {"name": "onnx-node." + name[5:] if name.startswith("test_") else "onnx-node." + name,
         "source": "onnx:{}-{}#{}".format(op, opset, name), "op": dml, "attrs": dml_attrs,
         "inputs": case_inputs, "expected": {"outputs": {"OutputTensor": expected}}}
    c["note"] = "ONNX {}-{} as {}; {} (ONNX's backend node test {}, {})".format(
        op, opset, dml, "; ".join(extra), name, where)
    return op, c


EXTRA.update({op: convert_normalize for op in NORM_OPS})


# ---------------------------------------------------------------------------------------
# Reductions: DML_OPERATOR_REDUCE, ARGMIN, ARGMAX

FLOAT_ONLY = F
# The pages' newest tables: 64-bit integers in ARGMIN and ARGMAX (4.1), MIN, MAX, SUM and
# MULTIPLY (5.0), the 32- and 64-bit integers in L1 and SUM_SQUARE (5.0).
TEN = F + ["INT64", "INT32", "INT16", "INT8", "UINT64", "UINT32", "UINT16", "UINT8"]
WIDE = F + ["INT64", "INT32", "UINT64", "UINT32"]
# ONNX operator -> (DML_REDUCE_FUNCTION name, its input types).
REDUCE_OPS = {
    "ReduceSum": ("SUM", WIDE), "ReduceMean": ("AVERAGE", FLOAT_ONLY),
    "ReduceMax": ("MAX", TEN), "ReduceMin": ("MIN", TEN),
    "ReduceProd": ("MULTIPLY", WIDE), "ReduceL1": ("L1", WIDE),
    "ReduceL2": ("L2", FLOAT_ONLY), "ReduceLogSum": ("LOG_SUM", FLOAT_ONLY),
    "ReduceLogSumExp": ("LOG_SUM_EXP", FLOAT_ONLY), "ReduceSumSquare": ("SUM_SQUARE", WIDE),
    "ArgMax": ("ARGMAX", TEN), "ArgMin": ("ARGMIN", TEN),
}
# The runner's default tolerance (conformance/ops_reduce.c) in ULPs, n the row's elements.
REDUCE_ULPS = {"SUM": 0, "L1": 0, "MULTIPLY": 0, "SUM_SQUARE": 1, "AVERAGE": 2, "L2": 2}


def reduce_tolerance(fn, x, axes):
    """The function's ULPs and an absolute bound for float32 sums (ours and ONNX's)."""
    x = np.asarray(x, dtype=np.float64)
    kept = [d for d in range(x.ndim) if d not in axes]
    n = int(np.prod([x.shape[d] for d in axes])) if axes else 1
    rows = np.transpose(x, kept + sorted(axes)).reshape(-1, n)
    terms = {"SUM": rows, "AVERAGE": rows / n, "L1": np.abs(rows), "MULTIPLY": None,
             "SUM_SQUARE": rows * rows, "L2": rows * rows, "LOG_SUM": rows}[fn]
    tol = {"ulp": n + REDUCE_ULPS.get(fn, 0)}
    if terms is not None:
        bound = float(np.max(np.sum(np.abs(terms), axis=1))) * n * 2.0 ** -23
        if fn == "L2":  # sqrt halves the relative error of the sum
            bound = float(np.max(np.sqrt(np.sum(terms, axis=1)))) * n * 2.0 ** -23
        if fn == "LOG_SUM":  # log turns the sum's relative error into an absolute one
            bound = 1 / 1024 + float(np.max(np.sum(np.abs(rows), axis=1) /
                                            np.maximum(np.abs(np.sum(rows, axis=1)), 1e-30))) \
                * n * 2.0 ** -23
        tol["abs"] = bound
    return tol


def convert_reduce(name, model, sets, where):
    g = model.graph
    node = g.node[0]
    op = node.op_type
    fn, table = REDUCE_OPS[op]
    attrs = attrs_of(node)
    if len(sets) != 1:
        raise Skip("data: {} data sets".format(len(sets)))
    ins, outs = sets[0]
    index = {vi.name: i for i, vi in enumerate(g.input)}
    if len(outs) != 1 or len(node.output) != 1:
        raise Skip("outputs: {} outputs".format(len(outs)))
    t, x = to_array(ins[index[node.input[0]]])
    out_t, out_a = to_array(outs[0])
    rank = x.ndim
    if rank == 0:
        raise Skip("shape: a 0-D input; DirectML tensors have 1 to 8 dimensions")
    if rank > 8:
        raise Skip("shape: {} dimensions; DirectML tensors have 1 to 8".format(rank))
    if 0 in x.shape:
        raise Skip("shape: an empty tensor; DirectML sizes are at least 1")
    if t not in table:
        raise Skip("type table: {} is not in {}'s type table".format(
            t, "ARGMAX and ARGMIN" if fn.startswith("ARG") else "REDUCE " + fn))
    extra = []
    if fn.startswith("ARG"):
        axes = [attrs.get("axis", 0)]
        last = attrs.get("select_last_index", 0)
        dml = "DML_OPERATOR_" + fn
        dml_attrs = {"AxisDirection": "DML_AXIS_DIRECTION_" +
                     ("DECREASING" if last else "INCREASING")}
        extra.append("axis {}, select_last_index={}".format(axes[0], last))
    else:
        if len(node.input) > 1 and node.input[1]:
            axes = [int(a) for a in to_array(ins[index[node.input[1]]])[1].reshape(-1)]
            extra.append("axes input {}".format(axes))
        else:
            axes = list(attrs.get("axes", []))
            extra.append("axes attribute {}".format(axes))
        if not axes and not attrs.get("noop_with_empty_axes", 0):
            axes = list(range(rank))
            extra.append("no axes: every axis")
        elif not axes:
            extra.append("noop_with_empty_axes=1: AxisCount 0")
        dml = "DML_OPERATOR_REDUCE"
        dml_attrs = {"Function": "DML_REDUCE_FUNCTION_" + fn}
    if any(a < -rank or a >= rank for a in axes):
        raise Skip("attribute: an axis outside the input's rank")
    norm = sorted({a + rank if a < 0 else a for a in axes})
    if norm != sorted(axes):
        extra.append("axes normalised to {}".format(norm))
    dml_attrs["Axes"] = norm
    keepdims = attrs.get("keepdims", 1)
    if not keepdims:
        extra.append("keepdims=0 as DirectML's size-1 axes")
    out_shape = [1 if d in norm else s for d, s in enumerate(x.shape)]
    if int(np.prod(out_shape)) != out_a.size:
        raise Skip("shape: the output has {} elements, not {}".format(out_a.size,
                                                                         int(np.prod(out_shape))))
    expected = case_tensor(out_t, out_a.reshape(out_shape))
    c = {"name": "onnx-node." + name[5:] if name.startswith("test_") else "onnx-node." + name,
         "source": "onnx:{}-{}#{}".format(op, opset_of(model, op), name), "op": dml,
         "attrs": dml_attrs, "inputs": {"InputTensor": case_tensor(t, x)},
         "expected": {"outputs": {"OutputTensor": expected}}}
    if t in F and fn not in ("MAX", "MIN") and not fn.startswith("ARG") and fn != "LOG_SUM_EXP":
        c["tolerance"] = reduce_tolerance(fn, x, norm)
        extra.append("tolerance {} ULP or within n 2^-23 sum|terms| (float32 sums)".format(
            c["tolerance"]["ulp"]))
    c["note"] = "ONNX {}-{} as {}".format(op, opset_of(model, op), dml) + \
        ("; " + "; ".join(extra) if extra else "") + \
        " (ONNX's backend node test {}, {})".format(name, where)
    return op, c


EXTRA.update({op: convert_reduce for op in REDUCE_OPS})



# ---------------------------------------------------------------------------------------
# Pooling: MaxPool, AveragePool, LpPool, GlobalMaxPool, GlobalAveragePool (convert_pool)

POOL_OPS = {"MaxPool": "MAX", "AveragePool": "AVERAGE", "LpPool": "LP",
            "GlobalMaxPool": "MAX", "GlobalAveragePool": "AVERAGE"}


def _pool_pads(attrs, spatial, window, strides, dil, out_sp):
    """(start, end) padding per spatial axis: pads, or auto_pad's SAME split (SAME_UPPER puts
    the odd element at the end, SAME_LOWER at the start), VALID none."""
    n = len(spatial)
    auto = attrs.get("auto_pad", "NOTSET")
    if auto in ("SAME_UPPER", "SAME_LOWER"):
        start, end = [], []
        for i in range(n):
            total = max(0, (out_sp[i] - 1) * strides[i] + (window[i] - 1) * dil[i] + 1 -
                        spatial[i])
            small = total // 2
            start.append(small if auto == "SAME_UPPER" else total - small)
            end.append(total - start[-1])
        return start, end
    if auto == "VALID":
        return [0] * n, [0] * n
    pads = list(attrs.get("pads", [0] * (2 * n)))
    return pads[:n], pads[n:]


def convert_pool(name, model, sets, where):
    """MaxPool as MAX_POOLING (MAX_POOLING2 with indices or dilations), AveragePool as
    AVERAGE_POOLING (AVERAGE_POOLING1 with dilations), LpPool as LP_POOLING (LP_POOLING1 with
    dilations), GlobalMaxPool and GlobalAveragePool as MAX_POOLING and AVERAGE_POOLING with the
    window the whole spatial size (ONNX Runtime's DirectML provider's mapping). 1-D pooling
    ({N, C, W}) runs as 2-D on {N, C, 1, W} with a window of 1 on H (DirectML takes 4 or 5
    dimensions). ceil_mode's sizes are the expected output's."""
    g = model.graph
    node = g.node[0]
    op = node.op_type
    attrs = attrs_of(node)
    if len(sets) != 1:
        raise Skip("data: {} data sets".format(len(sets)))
    ins, outs = sets[0]
    x_t, x = to_array(ins[0])
    results = [to_array(o) for o in outs]
    kind = POOL_OPS[op]
    table = TEN if kind == "MAX" else F
    if x_t not in table:
        raise Skip("type table: {} is not in the {} pooling table".format(x_t, kind.lower()))
    if x.ndim not in (3, 4, 5):
        raise Skip("shape: {} dimensions; pooling takes 3 (as 4), 4 or 5".format(x.ndim))
    if attrs.get("storage_order", 0):
        raise Skip("attribute: storage_order 1 (column-major indices); DirectML's indices are "
                   "row-major (ONNX Runtime's DirectML provider refuses it too)")
    y_t, y = results[0]
    one_d = x.ndim == 3
    if one_d:
        x = x.reshape(x.shape[0], x.shape[1], 1, x.shape[2])
        y = y.reshape(y.shape[0], y.shape[1], 1, y.shape[2])
    spatial = list(x.shape[2:])
    dims = len(spatial)
    out_sp = list(y.shape[2:])
    if op.startswith("Global"):
        window, strides, dil = spatial, [1] * dims, [1] * dims
        start, end = [0] * dims, [0] * dims
    else:
        window = list(attrs["kernel_shape"])
        strides = list(attrs.get("strides", [1] * len(window)))
        dil = list(attrs.get("dilations", [1] * len(window)))
        if one_d:
            window, strides, dil = [1] + window, [1] + strides, [1] + dil
        start, end = _pool_pads(attrs, spatial, window, strides, dil, out_sp)
        if one_d and "pads" in attrs and attrs.get("auto_pad", "NOTSET") == "NOTSET":
            start, end = [0] + list(attrs["pads"][:1]), [0] + list(attrs["pads"][1:])
    dilated = any(d != 1 for d in dil)
    extra = []
    dml_attrs = {"WindowSize": window, "Strides": strides, "StartPadding": start,
                 "EndPadding": end}
    outputs = {"OutputTensor": case_tensor(y_t, y)}
    if kind == "MAX":
        has_idx = len(results) > 1
        dml = "DML_OPERATOR_MAX_POOLING2" if has_idx or dilated else "DML_OPERATOR_MAX_POOLING"
        if dml.endswith("2"):
            dml_attrs["Dilations"] = dil
        if has_idx:
            i_a = np.asarray(results[1][1]).reshape(y.shape).astype(np.uint64)
            outputs["OutputIndicesTensor"] = case_tensor("UINT64", i_a)
            extra.append("Indices INT64 as UINT64")
    elif kind == "AVERAGE":
        dml = "DML_OPERATOR_AVERAGE_POOLING1" if dilated else "DML_OPERATOR_AVERAGE_POOLING"
        if dilated:
            dml_attrs["Dilations"] = dil
        dml_attrs["IncludePadding"] = bool(attrs.get("count_include_pad", 0))
    else:
        dml = "DML_OPERATOR_LP_POOLING1" if dilated else "DML_OPERATOR_LP_POOLING"
        if dilated:
            dml_attrs["Dilations"] = dil
        dml_attrs["P"] = int(attrs.get("p", 2))
    if one_d:
        extra.append("1-D as {N, C, 1, W}")
    if attrs.get("ceil_mode", 0):
        extra.append("ceil_mode: the expected output's Sizes")
    if attrs.get("auto_pad", "NOTSET") not in ("NOTSET", ""):
        extra.append("auto_pad {} as StartPadding {}, EndPadding {}".format(
            attrs["auto_pad"], start, end))
    tol = None
    if name in POOL_TOLERANCE:
        tol, why = POOL_TOLERANCE[name]
        extra.append(why)
    elif kind == "AVERAGE" and x_t == "FLOAT32":
        # ONNX's expected averages are float32 sums (numpy's), k - 1 roundings of up to
        # 2^-24 of the running sum each: an absolute bound k 2^-23 max|x| beside the ULPs.
        k = int(np.prod(window))
        bound = float(k * 2.0 ** -23 * np.abs(x.astype(np.float64)).max())
        tol = {"ulp": k + 2, "abs": bound}
        extra.append("tolerance {} ULP or {:.3g} absolute: ONNX's expected values are float32 "
                     "sums of the window (k 2^-23 max|x|)".format(k + 2, bound))
    c = _bnscan_case(name, model, op, dml, dml_attrs, {"InputTensor": case_tensor(x_t, x)},
                     outputs, extra, where)
    if tol is not None:
        c = dict(c)
        note = c.pop("note")
        c["tolerance"] = tol
        c["note"] = note
    return op, c


# Tests whose expected values need a tolerance of their own (the reason in the case's note).
POOL_TOLERANCE = {
    "test_averagepool_2d_ceil_last_window_starts_on_pad":
        ({"ulp": 11, "abs": 1e-4}, "tolerance 1e-4 absolute: ONNX's inputs and expected values "
         "are printed to 4 digits, the expected ones computed before the inputs were rounded "
         "(0.1511 for 1.3595 / 9 = 0.151056 from the printed inputs)"),
}

EXTRA.update({op: convert_pool for op in POOL_OPS})


# ---------------------------------------------------------------------------------------
# Resize and Upsample: DML_OPERATOR_RESAMPLE2 (ONNX Runtime's DirectML provider's mapping)

RESIZE_OPS = ("Resize", "Upsample")
# nearest_mode -> (RoundingDirection INCREASING, the input offset's adjustment), as
# DmlOperatorResize.cpp sets them.
RESIZE_NEAREST = {"round_prefer_floor": (True, 0.5), "round_prefer_ceil": (False, -0.5),
                  "floor": (False, 0.0), "ceil": (True, 0.0)}
FLT_MAX = 3.4028234663852886e38


def resize_axis(coord, n_in, n_out, scale, roi):
    """(InputPixelOffset, OutputPixelOffset, Scale) of one axis: ComputePixelOffsetsAndScales
    of ONNX Runtime's DmlOperatorResize.cpp."""
    if coord == "half_pixel":
        return 0.5, -0.5, scale
    if coord == "half_pixel_symmetric":
        return 0.5 - (n_in / 2.0) * (1.0 - n_out / (scale * n_in)), -0.5, scale
    if coord == "pytorch_half_pixel":
        return (0.0, 0.0, FLT_MAX) if n_in <= 1 else (0.5, -0.5, scale)
    if coord == "align_corners":
        if n_out <= 1 or n_in <= 1:
            return 0.0, 0.0, FLT_MAX
        return 0.0, 0.0, (n_out - 1) / (n_in - 1)
    if coord == "asymmetric":
        return 0.0, 0.0, scale
    if coord == "tf_half_pixel_for_nn":
        return 0.0, -0.5, scale
    if coord == "tf_crop_and_resize":
        start, end = roi
        if n_in > 1:
            return (-(start * (n_in - 1)), 0.0,
                    (n_out - 1) / max((end - start) * (n_in - 1), 1.0))
        return -0.5 * (start + end) * (n_in - 1), 0.0, 1.0
    raise Skip("attribute: coordinate_transformation_mode {}".format(coord))


def convert_resample(name, model, sets, where):
    """One ONNX Resize or Upsample node as DML_OPERATOR_RESAMPLE2, the mapping of ONNX Runtime's
    DirectML provider (DmlOperatorResize.cpp): per axis the coordinate_transformation_mode's
    input and output pixel offsets and scale (resize_axis), nearest_mode as RoundingDirection
    plus an input offset (RESIZE_NEAREST); scales from the scales input (or attribute), or
    from sizes (out / in; keep_aspect_ratio_policy's min or max over axes); axes name the
    scaled axes (the others 1). The expected values are ONNX's; the case converts only where
    DirectML's transform (conformance/gen/resample.py's model of it) reproduces them."""
    import resample as rs

    g = model.graph
    node = g.node[0]
    op = node.op_type
    attrs = attrs_of(node)
    opset = opset_of(model, op)
    mode = attrs.get("mode", "nearest").lower()
    if mode == "cubic":
        raise Skip("mode: cubic; DirectML's resampling is nearest or linear")
    antialias = bool(attrs.get("antialias", 0))
    if attrs.get("exclude_outside", 0):
        raise Skip("attribute: exclude_outside; DirectML clamps to the edges (ONNX Runtime "
                   "does not map it)")
    if attrs.get("extrapolation_value", 0.0) != 0.0:
        raise Skip("attribute: extrapolation_value; DirectML clamps to the edges (ONNX Runtime "
                   "does not map it)")
    if len(sets) != 1:
        raise Skip("data: {} data sets".format(len(sets)))
    ins, outs = sets[0]
    index = {vi.name: i for i, vi in enumerate(g.input)}

    def arg(i):
        if len(node.input) <= i or not node.input[i]:
            return None
        return to_array(ins[index[node.input[i]]])[1].reshape(-1)

    t, x = to_array(ins[index[node.input[0]]])
    out_t, y = to_array(outs[0])
    rank = x.ndim
    if t not in F:
        raise Skip("type table: {} is not in RESAMPLE2's type table".format(t))
    if rank < 1 or rank > 4:
        raise Skip("shape: {} dimensions; RESAMPLE2 takes 1 to 4".format(rank))
    if op == "Upsample" or opset < 11:
        scales_in, roi, sizes = (np.array(attrs["scales"]) if "scales" in attrs else arg(1)), \
            None, None
    else:
        roi, scales_in, sizes = arg(1), arg(2), arg(3)
    axes = [a + rank if a < 0 else a for a in attrs.get("axes", range(rank))]
    scales = [1.0] * rank
    if scales_in is not None and len(scales_in):
        for a, v in zip(axes, scales_in):
            scales[a] = float(v)
    else:
        ratios = [float(v) / x.shape[a] for a, v in zip(axes, sizes)]
        policy = attrs.get("keep_aspect_ratio_policy", "stretch")
        if policy != "stretch":
            r = min(ratios) if policy == "not_larger" else max(ratios)
            ratios = [r] * len(axes)
        for a, r in zip(axes, ratios):
            scales[a] = r
    coord = attrs.get("coordinate_transformation_mode", "half_pixel")
    full_roi = [0.0] * rank + [1.0] * rank
    if roi is not None and len(roi):
        for k, a in enumerate(axes):
            full_roi[a], full_roi[a + rank] = float(roi[k]), float(roi[k + len(axes)])
    out_shape = list(y.shape)
    in_offs, out_offs, sc = [], [], []
    for d in range(rank):
        io, oo, s = resize_axis(coord, x.shape[d], out_shape[d], scales[d],
                                (full_roi[d], full_roi[d + rank]))
        in_offs.append(io)
        out_offs.append(oo)
        sc.append(s)
    ceil = False
    extra = ["coordinate_transformation_mode {}".format(coord)]
    if mode == "nearest":
        nm = attrs.get("nearest_mode", "round_prefer_floor")
        if nm not in RESIZE_NEAREST:
            raise Skip("attribute: nearest_mode {}".format(nm))
        ceil, adj = RESIZE_NEAREST[nm]
        in_offs = [v + adj for v in in_offs]
        extra.append("nearest_mode {}".format(nm))
    in_offs, out_offs, sc = [f32(v) for v in in_offs], [f32(v) for v in out_offs], \
        [f32(v) for v in sc]
    model_y, mag = rs.resample(x.astype(np.float64), out_shape, sc, in_offs, out_offs,
                               mode == "linear", ceil, False, antialias)
    tol = None
    if mode == "linear":
        tol = {"ulp": 84, "abs": (64 if antialias else 16) * 2.0 ** -24 * float(mag.max()) +
               2.0 ** -20}
        ok = np.all(np.abs(model_y - y) <= 84 * np.spacing(np.abs(y).astype(np.float32)) +
                    tol["abs"])
    else:
        ok = np.array_equal(model_y.astype(np.float32), y.astype(np.float32))
    if not ok:
        raise Skip("values: ONNX Runtime's mapping onto DirectML's transform gives other values "
                   "than ONNX's (its align_corners and tf_crop_and_resize scales from the integer "
                   "sizes, pytorch_half_pixel's test of the input's length)")
    dml_attrs = {"InterpolationMode": "DML_INTERPOLATION_MODE_" +
                 ("LINEAR" if mode == "linear" else "NEAREST_NEIGHBOR"),
                 "RoundingDirection": "DML_AXIS_DIRECTION_" +
                 ("INCREASING" if ceil else "DECREASING"),
                 "Scales": sc, "InputPixelOffsets": in_offs, "OutputPixelOffsets": out_offs}
    dml = "DML_OPERATOR_RESAMPLE3" if antialias else "DML_OPERATOR_RESAMPLE2"
    if antialias:
        dml_attrs["Antialiased"] = True
        extra.append("antialias: Antialiased TRUE")
    c = {"name": "onnx-node." + name[5:] if name.startswith("test_") else "onnx-node." + name,
         "source": "onnx:{}-{}#{}".format(op, opset, name), "op": dml,
         "attrs": dml_attrs, "inputs": {"InputTensor": case_tensor(t, x)},
         "expected": {"outputs": {"OutputTensor": case_tensor(out_t, y)}}}
    if tol:
        c["tolerance"] = tol
    c["note"] = ("ONNX {}-{} as {} (ONNX Runtime's DirectML provider's mapping, "
                 "DmlOperatorResize.cpp); {} (ONNX's backend node test {}, {})").format(
        op, opset, dml.replace("DML_OPERATOR_", ""), "; ".join(extra), name, where)
    return op, c


EXTRA.update({op: convert_resample for op in RESIZE_OPS})


# ---------------------------------------------------------------------------------------
# Matrix products: Gemm and MatMul as DML_OPERATOR_GEMM


def _gemm_tolerance(a, b, c, alpha, beta):
    """2K + 2 ULP (reference/precision.md), or within (K + 3) 2^-23 (|alpha| sum|a b| +
    |beta c|): the float32 evaluations' bound, ours and the one ONNX's expected values come
    from, where the sum cancels."""
    a, b = np.asarray(a, dtype=np.float64), np.asarray(b, dtype=np.float64)
    k = a.shape[-1]
    mag = abs(alpha) * np.matmul(np.abs(a), np.abs(b))
    if c is not None:
        mag = mag + abs(beta) * np.abs(np.asarray(c, dtype=np.float64))
    return {"ulp": 2 * k + 2, "abs": float(np.max(mag, initial=0.0)) * (k + 3) * 2.0 ** -23}


def convert_gemm(name, model, sets, where):
    """One ONNX Gemm or MatMul node as DML_OPERATOR_GEMM, as ONNX Runtime's DirectML provider
    lowers it (DmlOperatorGemm.cpp, DmlOperatorMatMul.cpp):
    - Gemm: A and B as they are, transA and transB as TransA and TransB, alpha and beta as
      Alpha and Beta; C (a scalar, a vector, a row, a column or a matrix: unidirectional
      broadcasting) takes the output's Sizes {M, N}, its broadcast dimensions read with stride
      0; without C, CTensor is absent.
    - MatMul: a 1-D A is {1, K} and a 1-D B {K, 1} (the output's promoted dimension kept:
      the same data); the batch dimensions broadcast numpy's way to the output's, each operand
      padded with leading 1s and reading a broadcast dimension with stride 0; Alpha 1, Beta 0,
      no C.
    FLOAT32 and FLOAT16 only (GEMM's table)."""
    g = model.graph
    node = g.node[0]
    op = node.op_type
    attrs = attrs_of(node)
    if len(sets) != 1:
        raise Skip("data: {} data sets".format(len(sets)))
    ins, outs = sets[0]
    index = {vi.name: i for i, vi in enumerate(g.input)}
    values = [to_array(ins[index[n]]) if n else None for n in node.input]
    out_t, out_a = to_array(outs[0])
    a_t, a = values[0]
    b_t, b = values[1]
    for t in (a_t, b_t, out_t):
        if t not in F:
            raise Skip("type table: {} is not in GEMM's type table (FLOAT32, FLOAT16)".format(t))
    if 0 in a.shape or 0 in b.shape:
        raise Skip("shape: an empty tensor; DirectML sizes are at least 1")
    extra = []
    if op == "Gemm":
        ta, tb = int(attrs.get("transA", 0)), int(attrs.get("transB", 0))
        alpha, beta = f32(attrs.get("alpha", 1.0)), f32(attrs.get("beta", 1.0))
        if a.ndim != 2 or b.ndim != 2:
            raise Skip("shape: Gemm of ranks {} and {}".format(a.ndim, b.ndim))
        m = a.shape[1] if ta else a.shape[0]
        n = b.shape[0] if tb else b.shape[1]
        inputs = {"ATensor": case_tensor(a_t, a), "BTensor": case_tensor(b_t, b)}
        c = None
        if len(values) > 2 and values[2] is not None:
            c_t, c = values[2]
            if c_t != a_t:
                raise Skip("type: C is {}, A {}".format(c_t, a_t))
            inputs["CTensor"] = case_tensor(c_t, c, [m, n])
            extra.append("C of shape {} broadcast to {{{}, {}}} by strides".format(
                list(np.shape(c)), m, n))
        else:
            extra.append("no C: CTensor absent")
        dml_attrs = {"TransA": "DML_MATRIX_TRANSFORM_" + ("TRANSPOSE" if ta else "NONE"),
                     "TransB": "DML_MATRIX_TRANSFORM_" + ("TRANSPOSE" if tb else "NONE"),
                     "Alpha": alpha, "Beta": beta}
        am, bm = (a.T if ta else a), (b.T if tb else b)
        cb = None if c is None else np.broadcast_to(np.asarray(c, dtype=np.float64), (m, n))
        tol = _gemm_tolerance(am, bm, cb, alpha, beta)
        out_shape = [m, n]
    else:  # MatMul
        if a.ndim == 0 or b.ndim == 0:
            raise Skip("shape: a 0-D operand")
        a2 = a.reshape(1, -1) if a.ndim == 1 else a
        b2 = b.reshape(-1, 1) if b.ndim == 1 else b
        if a.ndim == 1:
            extra.append("1-D A as {{1, {}}}".format(a.shape[0]))
        if b.ndim == 1:
            extra.append("1-D B as {{{}, 1}}".format(b.shape[0]))
        try:
            batch = list(np.broadcast_shapes(a2.shape[:-2], b2.shape[:-2]))
        except ValueError:
            raise Skip("shape: batch dimensions that do not broadcast")
        rank = len(batch) + 2
        if rank > 8:
            raise Skip("shape: {} dimensions; GEMM takes 2 to 8".format(rank))
        m, k, n = a2.shape[-2], a2.shape[-1], b2.shape[-1]
        inputs = {"ATensor": case_tensor(a_t, a2, batch + [m, k]),
                  "BTensor": case_tensor(b_t, b2, batch + [k, n])}
        if list(a2.shape[:-2]) != batch or list(b2.shape[:-2]) != batch:
            extra.append("batch {} broadcast by zero strides".format(batch))
        dml_attrs = {"TransA": "DML_MATRIX_TRANSFORM_NONE", "TransB": "DML_MATRIX_TRANSFORM_NONE",
                     "Alpha": 1.0, "Beta": 0.0}
        tol = _gemm_tolerance(np.broadcast_to(a2, batch + [m, k]),
                              np.broadcast_to(b2, batch + [k, n]), None, 1.0, 0.0)
        out_shape = batch + [m, n]
    if int(np.prod(out_shape)) != np.asarray(out_a).size:
        raise Skip("shape: the output has {} elements, not {}".format(np.asarray(out_a).size,
                                                                         int(np.prod(out_shape))))
    expected = case_tensor(out_t, np.asarray(out_a).reshape(out_shape))
    c = {"name": "onnx-node." + (name[5:] if name.startswith("test_") else name),
         "source": "onnx:{}-{}#{}".format(op, opset_of(model, op), name),
         "op": "DML_OPERATOR_GEMM", "attrs": dml_attrs, "inputs": inputs,
         "expected": {"outputs": {"OutputTensor": expected}}, "tolerance": tol}
    extra.append("tolerance {} ULP or within (K + 3) 2^-23 sum|terms| (float32 sums)".format(
        tol["ulp"]))
    c["note"] = "ONNX {}-{} as DML_OPERATOR_GEMM; {} (ONNX's backend node test {}, {})".format(
        op, opset_of(model, op), "; ".join(extra), name, where)
    return op, c


EXTRA.update({"Gemm": convert_gemm, "MatMul": convert_gemm})


# ---------------------------------------------------------------------------------------
# Convolutions (convert_conv): Conv, ConvTranspose

CONV_OPS = {"Conv": False, "ConvTranspose": True}


def conv_pads(attrs, x_sp, k, s, d, transposed, out_sp=None):
    """StartPadding and EndPadding from pads or auto_pad (ONNX's rules, as ONNX Runtime
    resolves them)."""
    n = len(x_sp)
    auto = attrs.get("auto_pad", "NOTSET")
    pads = list(attrs.get("pads", [0] * 2 * n))
    if auto in ("NOTSET", "VALID"):
        return (pads[:n], pads[n:]) if auto == "NOTSET" else ([0] * n, [0] * n)
    start, end = [], []
    for i in range(n):
        window = (k[i] - 1) * d[i] + 1
        if transposed:
            op = attrs.get("output_padding", [0] * n)[i]
            total = max(0, s[i] * (x_sp[i] - 1) + op + window - x_sp[i] * s[i])
        else:
            out = -(-x_sp[i] // s[i])
            total = max(0, (out - 1) * s[i] + window - x_sp[i])
        small = total // 2
        if auto == "SAME_UPPER":
            start.append(small), end.append(total - small)
        else:
            start.append(total - small), end.append(small)
    return start, end


def convert_conv(name, model, sets, where):
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    from conv import conv as conv_ref
    from conv import params as conv_params

    g = model.graph
    node = g.node[0]
    op = node.op_type
    transposed = CONV_OPS[op]
    attrs = attrs_of(node)
    if len(sets) != 1:
        raise Skip("data: {} data sets".format(len(sets)))
    ins, outs = sets[0]
    index = {vi.name: i for i, vi in enumerate(g.input)}
    t, x = to_array(ins[index[node.input[0]]])
    _, w = to_array(ins[index[node.input[1]]])
    b = None
    if len(node.input) > 2 and node.input[2]:
        b = to_array(ins[index[node.input[2]]])[1]
    out_t, y = to_array(outs[0])
    if t not in F:
        raise Skip("type table: {} is not in CONVOLUTION's (FLOAT32, FLOAT16)".format(t))
    if x.ndim < 3 or x.ndim > 5:
        raise Skip("shape: {} dimensions; CONVOLUTION takes 3 to 5".format(x.ndim))
    sp = x.ndim - 2
    k = list(attrs.get("kernel_shape", w.shape[2:]))
    s = list(attrs.get("strides", [1] * sp))
    d = list(attrs.get("dilations", [1] * sp))
    group = attrs.get("group", 1)
    extra = []
    x_sp = list(x.shape[2:])
    if transposed and "output_shape" in attrs:
        out_sp = list(attrs["output_shape"])[-sp:]
        start, end = [], []
        for i in range(sp):
            pad = max(0, (x_sp[i] - 1) * s[i] + k[i] - out_sp[i])
            first = pad // 2 if attrs.get("auto_pad", "NOTSET") == "SAME_UPPER" else (pad + 1) // 2
            start.append(first), end.append(pad - first)
        extra.append("output_shape {}: pads {} / {} (ONNX Runtime's rule)".format(out_sp, start,
                                                                                  end))
    else:
        start, end = conv_pads(attrs, x_sp, k, s, d, transposed)
    if attrs.get("auto_pad", "NOTSET") != "NOTSET":
        extra.append("auto_pad {}: StartPadding {}, EndPadding {}".format(attrs["auto_pad"],
                                                                          start, end))
    if transposed and any(attrs.get("output_padding", [])):
        extra.append("output_padding {} as a larger OutputTensor, OutputPadding 0 (ONNX "
                     "Runtime's DirectML provider)".format(attrs["output_padding"]))
    dml_attrs = {"Mode": "DML_CONVOLUTION_MODE_CROSS_CORRELATION",
                 "Direction": "DML_CONVOLUTION_DIRECTION_" + ("BACKWARD" if transposed
                                                              else "FORWARD"),
                 "Strides": s, "Dilations": d, "StartPadding": start, "EndPadding": end,
                 "OutputPadding": [0] * sp, "GroupCount": group}
    inputs = {"InputTensor": case_tensor(t, x), "FilterTensor": case_tensor(t, w)}
    if b is not None:
        inputs["BiasTensor"] = case_tensor(t, b.reshape([1, -1] + [1] * sp))
    p = conv_params(sp, stride=s, dil=d, start=start, end=end, groups=group,
                    backward=transposed)
    xs, ws = np.asarray(x, np.float64), np.asarray(w, np.float64)
    _, mag, terms = conv_ref(np.abs(xs), np.abs(ws), None if b is None else np.abs(b), p,
                             list(y.shape))
    taps = (w.shape[0] // group if transposed else w.shape[1]) * int(np.prod(w.shape[2:]))
    tol = {"ulp": 2 * taps, "abs": float(((terms + 2) * mag).max()) * 2.0 ** -23}
    c = {"name": "onnx-node." + name[5:] if name.startswith("test_") else "onnx-node." + name,
         "source": "onnx:{}-{}#{}".format(op, opset_of(model, op), name),
         "op": "DML_OPERATOR_CONVOLUTION", "attrs": dml_attrs, "inputs": inputs,
         "expected": {"outputs": {"OutputTensor": case_tensor(out_t, y)}}, "tolerance": tol}
    c["note"] = "ONNX {}-{} as CONVOLUTION {}".format(
        op, opset_of(model, op), "BACKWARD" if transposed else "FORWARD") + \
        ("; " + "; ".join(extra) if extra else "") + \
        "; tolerance 2 x taps ULP or the bound of float32 sums (ONNX's backend node test {}, " \
        "{})".format(name, where)
    return op, c


EXTRA.update({op: convert_conv for op in CONV_OPS})


# ---------------------------------------------------------------------------------------
# QuantizeLinear, DequantizeLinear


QUANT_OPS = {"QuantizeLinear": (EW + "QUANTIZE_LINEAR", ["FLOAT32", "FLOAT16", "INT32"],
                                ["INT8", "UINT8"]),
             "DequantizeLinear": (EW + "DEQUANTIZE_LINEAR",
                                  ["INT32", "INT16", "INT8", "UINT32", "UINT16", "UINT8"],
                                  ["FLOAT32", "FLOAT16"])}


def convert_quant(name, model, sets, where):
    """QuantizeLinear and DequantizeLinear as ELEMENT_WISE_QUANTIZE_LINEAR and
    _DEQUANTIZE_LINEAR, as ONNX Runtime's DirectML provider maps them
    (DmlOperatorElementwiseQLinear): a 1-D scale or zero point that is not the output's shape
    lies along `axis` ({1, .., C, .., 1}), any other shape broadcasts by numpy's rule, every one
    read by zero strides; an absent zero point is absent (feature level 6.2). Blocked
    quantization (block_size) has no element-wise form."""
    g = model.graph
    node = g.node[0]
    op = node.op_type
    dml, in_table, out_table = QUANT_OPS[op]
    attrs = attrs_of(node)
    if attrs.get("block_size", 0):
        return convert_quant_blocked(name, model, sets, where)
    if len(sets) != 1:
        raise Skip("data: {} data sets".format(len(sets)))
    ins, outs = sets[0]
    index = {vi.name: i for i, vi in enumerate(g.input)}
    values = [to_array(ins[index[n]]) if n else None for n in node.input]
    out_t, out_a = to_array(outs[0])
    out_shape = list(out_a.shape) or [1]
    (x_t, x), (s_t, _) = values[0], values[1]
    short = dml.replace("DML_OPERATOR_", "")
    for t, table in ((x_t, in_table), (out_t, out_table)):
        if t not in table:
            raise Skip("type table: {} is not in {}'s type table".format(t, short))
    rank = len(out_shape)
    axis = attrs.get("axis", 1)
    axis = axis + rank if axis < 0 else axis
    members = ["InputTensor", "ScaleTensor", "ZeroPointTensor"]
    case_inputs, extra = {}, []
    for m, v in zip(members, values):
        if v is None:
            extra.append(m + " absent (feature level 6.2)")
            continue
        t, a = v
        if a.ndim == 1 and a.shape[0] != 1 and list(a.shape) != out_shape:
            shape = [1] * rank
            shape[axis] = a.shape[0]
            a = a.reshape(shape)
            extra.append("{} {} along axis {}".format(m, list(v[1].shape), axis))
        ct = case_tensor(t, a, out_shape)
        if "strides" in ct and m != "InputTensor":
            extra.append("{} read with strides {}".format(m, ct["strides"]))
        case_inputs[m] = ct
    expected = case_tensor(out_t, out_a)
    expected["shape"] = out_shape
    c = {"name": "onnx-node." + (name[5:] if name.startswith("test_") else name),
         "source": "onnx:{}-{}#{}".format(op, opset_of(model, op), name), "op": dml,
         "inputs": case_inputs, "expected": {"outputs": {"OutputTensor": expected}}}
    c["note"] = "ONNX {}-{} as {}".format(op, opset_of(model, op), dml) + \
        ("; " + "; ".join(extra) if extra else "") + \
        " (ONNX's backend node test {}, {})".format(name, where)
    return op, c


EXTRA.update({op: convert_quant for op in QUANT_OPS})

# QuantizeLinear and DequantizeLinear with block_size as DML_OPERATOR_QUANTIZE and DEQUANTIZE
# (feature level 6.3), as ONNX Runtime's DirectML provider builds blocked quantization: the
# blocked axis split into {blocks, block_size}, the scale and zero point (one per block) read
# with stride 0 over the block's elements.
BLOCKED_OPS = {"QuantizeLinear": ("DML_OPERATOR_QUANTIZE", ["FLOAT32", "FLOAT16"],
                                  ["INT8", "UINT8"]),
               "DequantizeLinear": ("DML_OPERATOR_DEQUANTIZE", ["INT8", "UINT8"],
                                    ["FLOAT32", "FLOAT16"])}


def convert_quant_blocked(name, model, sets, where):
    g = model.graph
    node = g.node[0]
    op = node.op_type
    dml, in_table, out_table = BLOCKED_OPS[op]
    attrs = attrs_of(node)
    block = attrs["block_size"]
    if len(sets) != 1:
        raise Skip("data: {} data sets".format(len(sets)))
    ins, outs = sets[0]
    index = {vi.name: i for i, vi in enumerate(g.input)}
    values = [to_array(ins[index[n]]) if n else None for n in node.input]
    out_t, out_a = to_array(outs[0])
    (x_t, x) = values[0]
    short = dml.replace("DML_OPERATOR_", "")
    for t, table in ((x_t, in_table), (out_t, out_table)):
        if t not in table:
            raise Skip("type table: {} is not in {}'s type table".format(t, short))
    rank = x.ndim
    axis = attrs.get("axis", 1)
    axis = axis + rank if axis < 0 else axis
    if x.shape[axis] % block:
        raise Skip("shape: axis {} of {} elements is not whole blocks of {}".format(
            axis, x.shape[axis], block))
    split = list(x.shape[:axis]) + [x.shape[axis] // block, block] + list(x.shape[axis + 1:])
    qtensors = []
    for v in values[1:]:
        if v is None:
            continue
        t, a = v
        qtensors.append(case_tensor(t, a.reshape(list(a.shape[:axis + 1]) + [1] +
                                                 list(a.shape[axis + 1:])), split))
    quant_type = "DML_QUANTIZATION_TYPE_SCALE_ZERO_POINT" if len(qtensors) == 2 else \
        "DML_QUANTIZATION_TYPE_SCALE"
    expected = case_tensor(out_t, out_a.reshape(split))
    c = {"name": "onnx-node." + (name[5:] if name.startswith("test_") else name),
         "source": "onnx:{}-{}#{}".format(op, opset_of(model, op), name), "op": dml,
         "attrs": {"QuantizationType": quant_type},
         "inputs": {"InputTensor": case_tensor(x_t, x.reshape(split)),
                    "QuantizationTensors": qtensors},
         "expected": {"outputs": {"OutputTensor": expected}}}
    c["note"] = ("ONNX {}-{} with block_size {} as {}: axis {} of {} split into {}, the "
                 "quantization tensors read with stride 0 over each block (ONNX's backend node "
                 "test {}, {})").format(op, opset_of(model, op), block, dml, axis,
                                        list(x.shape), split, name, where)
    return op, c


# DynamicQuantizeLinear as DML_OPERATOR_DYNAMIC_QUANTIZE_LINEAR (ONNX Runtime's DirectML
# provider's mapping): the scale and zero point as tensors of the input's rank, one element.
def convert_dynamic_quant(name, model, sets, where):
    g = model.graph
    node = g.node[0]
    op = node.op_type
    if len(sets) != 1:
        raise Skip("data: {} data sets".format(len(sets)))
    ins, outs = sets[0]
    x_t, x = to_array(ins[0])
    (y_t, y), (s_t, sc), (z_t, zp) = (to_array(o) for o in outs)
    shape = list(x.shape) or [1]
    one = [1] * len(shape)
    dml = "DML_OPERATOR_DYNAMIC_QUANTIZE_LINEAR"
    c = {"name": "onnx-node." + (name[5:] if name.startswith("test_") else name),
         "source": "onnx:{}-{}#{}".format(op, opset_of(model, op), name), "op": dml,
         "inputs": {"InputTensor": case_tensor(x_t, x.reshape(shape))},
         "expected": {"outputs": {"OutputTensor": case_tensor(y_t, y.reshape(shape)),
                                  "OutputScaleTensor": case_tensor(s_t, sc.reshape(one)),
                                  "OutputZeroPointTensor": case_tensor(z_t, zp.reshape(one))}}}
    c["note"] = ("ONNX {}-{} as {}; the scale and zero point {{{}}} (ONNX's backend node test "
                 "{}, {})").format(op, opset_of(model, op), dml, ", ".join("1" for _ in one),
                                   name, where)
    return op, c


EXTRA["DynamicQuantizeLinear"] = convert_dynamic_quant


# ---------------------------------------------------------------------------------------
# Scatter (opset 9, 10), ScatterElements, ScatterND: DML_OPERATOR_SCATTER_ELEMENTS and
# DML_OPERATOR_SCATTER_ND, as ONNX Runtime's DirectML provider maps them (DmlOperatorScatter.cpp)

SCATTER_OPS = ("Scatter", "ScatterElements", "ScatterND")
DATA_TYPES = ["FLOAT64"] + TEN


def convert_scatter(name, model, sets, where):
    g = model.graph
    node = g.node[0]
    op = node.op_type
    attrs = attrs_of(node)
    if attrs.get("reduction", "none") != "none":
        raise Skip("attribute: reduction \"{}\"; DirectML's scatters write the updates "
                   "(reduction \"none\") only".format(attrs["reduction"]))
    if len(sets) != 1:
        raise Skip("data: {} data sets".format(len(sets)))
    ins, outs = sets[0]
    index = {vi.name: i for i, vi in enumerate(g.input)}
    (x_t, x), (i_t, i), (u_t, u) = [to_array(ins[index[n]]) for n in node.input]
    out_t, out_a = to_array(outs[0])
    if x_t not in DATA_TYPES:
        raise Skip("type table: {} is not in the scatters' type table".format(x_t))
    if 0 in x.shape or 0 in i.shape or x.ndim == 0:
        raise Skip("shape: an empty or 0-D tensor; DirectML sizes are at least 1")
    rank = max(x.ndim, i.ndim, u.ndim)
    if rank > 8:
        raise Skip("shape: {} dimensions; DirectML tensors have 1 to 8".format(rank))

    def padded(t, a):
        return case_tensor(t, np.asarray(a).reshape([1] * (rank - a.ndim) + list(a.shape)))

    inputs = {"InputTensor": padded(x_t, x), "IndicesTensor": padded(i_t, i),
              "UpdatesTensor": padded(u_t, u)}
    expected = {"OutputTensor": padded(out_t, out_a)}
    if op == "ScatterND":
        dml = "DML_OPERATOR_SCATTER_ND"
        dml_attrs = {"InputDimensionCount": int(x.ndim), "IndicesDimensionCount": int(i.ndim)}
        extra = ["every tensor padded to {} dimensions; InputDimensionCount {}, "
                 "IndicesDimensionCount {}".format(rank, x.ndim, i.ndim)]
    else:
        dml = "DML_OPERATOR_SCATTER_ELEMENTS"
        axis = int(attrs.get("axis", 0))
        if not -x.ndim <= axis < x.ndim:
            raise Skip("attribute: axis {} outside [-{}, {})".format(axis, x.ndim, x.ndim))
        axis += x.ndim if axis < 0 else 0
        if any(i.shape[d] != x.shape[d] for d in range(x.ndim) if d != axis):
            raise Skip("shape: indices {} differ from the data {} off the axis; DirectML's "
                       "IndicesTensor takes the input's Sizes there".format(
                           list(i.shape), list(x.shape)))
        dml_attrs = {"Axis": axis}
        extra = ["axis {}".format(axis)]
    c = {"name": "onnx-node." + (name[5:] if name.startswith("test_") else name),
         "source": "onnx:{}-{}#{}".format(op, opset_of(model, op), name), "op": dml,
         "attrs": dml_attrs, "inputs": inputs, "expected": {"outputs": expected}}
    c["note"] = "ONNX {}-{} as {}; {} (ONNX's backend node test {}, {})".format(
        op, opset_of(model, op), dml, "; ".join(extra), name, where)
    return op, c


EXTRA.update({op: convert_scatter for op in SCATTER_OPS})


# ---------------------------------------------------------------------------------------
# OneHot and EyeLike: DML_OPERATOR_ONE_HOT and DML_OPERATOR_DIAGONAL_MATRIX1

INDEX_TYPES = ("INT32", "UINT32", "INT64", "UINT64")


def convert_onehot(name, model, sets, where):
    """OneHot as ONE_HOT: the output's rank, the indices' size 1 along the axis, ValuesTensor
    {off, on} as the data's {1, ..., 2}; whole-number float indices as INT64 (a provider casts
    them; ONE_HOT's IndicesTensor takes integers)."""
    node = model.graph.node[0]
    op = node.op_type
    if len(sets) != 1:
        raise Skip("data: {} data sets".format(len(sets)))
    ins, outs = sets[0]
    index = {vi.name: i for i, vi in enumerate(model.graph.input)}
    (i_t, i), (_, depth), (v_t, v) = [to_array(ins[index[n]]) for n in node.input]
    out_t, out_a = to_array(outs[0])
    rank = out_a.ndim
    if rank > 8:
        raise Skip("shape: {} dimensions; DirectML tensors have 1 to 8".format(rank))
    axis = int(attrs_of(node).get("axis", -1))
    axis += rank if axis < 0 else 0
    extra = ["axis {}".format(axis)]
    if i_t not in INDEX_TYPES:
        if not np.all(np.isfinite(i)) or np.any(i != np.trunc(i)):
            raise Skip("type: {} indices that are not whole numbers".format(i_t))
        extra.append("{} indices (whole numbers) as INT64, as a provider casts them".format(i_t))
        i_t, i = "INT64", i.astype(np.int64)
    if int(np.asarray(depth).reshape(-1)[0]) != out_a.shape[axis]:
        raise Skip("shape: depth {} is not the output's size {} along the axis".format(
            depth, out_a.shape[axis]))
    ishape = list(out_a.shape)
    ishape[axis] = 1
    inputs = {"IndicesTensor": case_tensor(i_t, np.asarray(i).reshape(ishape)),
              "ValuesTensor": case_tensor(v_t, np.asarray(v).reshape([1] * (rank - 1) + [2]))}
    c = {"name": "onnx-node." + name[5:], "source": "onnx:{}-{}#{}".format(
        op, opset_of(model, op), name), "op": "DML_OPERATOR_ONE_HOT", "attrs": {"Axis": axis},
        "inputs": inputs, "expected": {"outputs": {"OutputTensor": case_tensor(out_t, out_a)}}}
    c["note"] = "ONNX {}-{} as DML_OPERATOR_ONE_HOT; {} (ONNX's backend node test {}, {})".format(
        op, opset_of(model, op), "; ".join(extra), name, where)
    return op, c


def convert_eyelike(name, model, sets, where):
    """EyeLike as DIAGONAL_MATRIX1 with no InputTensor: the output's type and Sizes, Value 1 of
    that type on the band [k, k + 1)."""
    node = model.graph.node[0]
    op = node.op_type
    if len(sets) != 1:
        raise Skip("data: {} data sets".format(len(sets)))
    out_t, out_a = to_array(sets[0][1][0])
    if out_a.ndim != 2:
        raise Skip("shape: EyeLike's output is 2-D")
    k = int(attrs_of(node).get("k", 0))
    one = 1.0 if out_t.startswith("FLOAT") else 1
    c = {"name": "onnx-node." + name[5:], "source": "onnx:{}-{}#{}".format(
        op, opset_of(model, op), name), "op": "DML_OPERATOR_DIAGONAL_MATRIX1",
        "inputs": {"OutputTensor": {"type": dml_type(out_t), "shape": list(out_a.shape)}},
        "attrs": {"ValueDataType": dml_type(out_t), "Value": one, "DiagonalFillBegin": k,
                  "DiagonalFillEnd": k + 1},
        "expected": {"outputs": {"OutputTensor": case_tensor(out_t, out_a)}}}
    c["note"] = ("ONNX {}-{} as DML_OPERATOR_DIAGONAL_MATRIX1, Value 1 on the diagonal k = {} "
                 "(ONNX's backend node test {}, {})".format(op, opset_of(model, op), k, name,
                                                            where))
    return op, c


EXTRA.update({"OneHot": convert_onehot, "EyeLike": convert_eyelike})


# ---------------------------------------------------------------------------------------
# RNN, GRU and LSTM: DML_OPERATOR_RNN, _GRU, _LSTM in DirectML's layouts (as
# conformance/gen/rnn.py): Input {1, seq, batch, input}, Weight {1, dirs, G*H, input},
# Recurrence {1, dirs, G*H, H}, Bias {1, 1, dirs, 2*G*H}, HiddenInit and CellMemInit
# {1, dirs, batch, H}, SequenceLengths {1, 1, 1, batch} (UINT32), Peephole {1, 1, dirs, 3*H},
# OutputSequence {seq, dirs, batch, H}, OutputSingle and OutputCellSingle {1, dirs, batch, H};
# layout 1 (batch first) rearranged to these (the values ONNX's, moved)

RNN_GATES = {"RNN": 1, "GRU": 3, "LSTM": 4}
RNN_DIRECTIONS = {"forward": "DML_RECURRENT_NETWORK_DIRECTION_FORWARD",
                  "reverse": "DML_RECURRENT_NETWORK_DIRECTION_BACKWARD",
                  "bidirectional": "DML_RECURRENT_NETWORK_DIRECTION_BIDIRECTIONAL"}
RNN_DEFAULT_ACTS = {"RNN": ["Tanh"], "GRU": ["Sigmoid", "Tanh"], "LSTM": ["Sigmoid", "Tanh", "Tanh"]}
RNN_ACTS = {"Tanh": "DML_OPERATOR_ACTIVATION_TANH", "Sigmoid": "DML_OPERATOR_ACTIVATION_SIGMOID",
            "Relu": "DML_OPERATOR_ACTIVATION_RELU"}


def convert_rnn(name, model, sets, where):
    """RNN, GRU and LSTM as DirectML's. Tolerance: each step's gate sums (K = input + H + 2
    terms, the GEMM rule) and TANH's 1/1024, carried through the steps:
    abs = steps * (K^2 * 2^-23 + 2^-10) (conformance/gen/rnn.py's)."""
    node = model.graph.node[0]
    op = node.op_type
    attrs = attrs_of(node)
    if len(sets) != 1:
        raise Skip("data: {} data sets".format(len(sets)))
    for a in ("activation_alpha", "activation_beta", "clip"):
        if a in attrs:
            raise Skip("attribute: {}; the converter maps parameterless activations only".format(a))
    if op == "LSTM" and attrs.get("input_forget", 0):
        raise Skip("attribute: input_forget 1; DirectML's LSTM has UseClipThreshold and "
                   "CoupleInputForget, not mapped here")
    ins, outs = sets[0]
    index = {vi.name: i for i, vi in enumerate(model.graph.input)}
    got = {}
    for slot, n in enumerate(node.input):
        if n:
            got[slot] = to_array(ins[index[n]])
    layout = int(attrs.get("layout", 0))
    g = RNN_GATES[op]
    direction = attrs.get("direction", "forward")
    dirs = 2 if direction == "bidirectional" else 1
    hidden = int(attrs["hidden_size"])
    x_t, x = got[0]
    if x_t != "FLOAT32":
        raise Skip("type: {} (the node tests' data is FLOAT32)".format(x_t))
    if layout:
        x = np.transpose(x, (1, 0, 2))
    seq, batch, inp = x.shape
    inputs = {"InputTensor": case_tensor("FLOAT32", x.reshape(1, seq, batch, inp)),
              "WeightTensor": case_tensor("FLOAT32", got[1][1].reshape(1, dirs, g * hidden, inp)),
              "RecurrenceTensor": case_tensor("FLOAT32",
                                              got[2][1].reshape(1, dirs, g * hidden, hidden))}
    if 3 in got:
        inputs["BiasTensor"] = case_tensor("FLOAT32", got[3][1].reshape(1, 1, dirs, 2 * g * hidden))
    if 4 in got:
        lens = got[4][1].astype(np.int64)
        if np.any(lens < 0):
            raise Skip("data: a negative sequence length")
        inputs["SequenceLengthsTensor"] = case_tensor("UINT32", lens.reshape(1, 1, 1, batch))
    states = (("HiddenInitTensor", 5), ("CellMemInitTensor", 6))
    for member, slot in states[:2 if op == "LSTM" else 1]:
        if slot in got:
            h = got[slot][1]
            if layout:
                h = np.transpose(h, (1, 0, 2))
            inputs[member] = case_tensor("FLOAT32", h.reshape(1, dirs, batch, hidden))
    if op == "LSTM" and 7 in got:
        inputs["PeepholeTensor"] = case_tensor("FLOAT32", got[7][1].reshape(1, 1, dirs, 3 * hidden))
    k = inp + hidden + 2
    tol = {"abs": seq * (k * k * 2.0 ** -23 + 2.0 ** -10)}
    expected = {}
    members = ("OutputSequenceTensor", "OutputSingleTensor", "OutputCellSingleTensor")
    for slot, n in enumerate(node.output):
        if not n:
            continue
        _, a = to_array(outs[[o for o in node.output if o].index(n)])
        if slot == 0:
            a = np.transpose(a, (1, 2, 0, 3)) if layout else a  # [batch, seq, dirs, H]
        else:
            a = np.transpose(a, (1, 0, 2)) if layout else a  # [batch, dirs, H]
            a = a.reshape(1, dirs, batch, hidden)
        expected[members[slot]] = dict(case_tensor("FLOAT32", a), tolerance=tol)
    acts = attrs.get("activations")
    acts = list(acts) if acts else RNN_DEFAULT_ACTS[op] * dirs
    if any(a not in RNN_ACTS for a in acts):
        raise Skip("attribute: activations {}".format(acts))
    dml_attrs = {"ActivationDescs": [{"Type": RNN_ACTS[a]} for a in acts],
                 "Direction": RNN_DIRECTIONS[direction]}
    extra = ["direction {}".format(direction)]
    if op == "GRU":
        dml_attrs["LinearBeforeReset"] = bool(attrs.get("linear_before_reset", 0))
    if layout:
        extra.append("layout 1 (batch first) rearranged to DirectML's sequence-first layouts")
    c = {"name": "onnx-node." + name[5:], "source": "onnx:{}-{}#{}".format(
        op, opset_of(model, op), name), "op": "DML_OPERATOR_" + op, "attrs": dml_attrs,
        "inputs": inputs, "expected": {"outputs": expected}}
    c["note"] = ("ONNX {}-{} as DML_OPERATOR_{} in DirectML's layouts; {}; tolerance "
                 "seq x (K^2 2^-23 + 2^-10), K = input + hidden + 2 (ONNX's backend node test {}, "
                 "{})".format(op, opset_of(model, op), op, "; ".join(extra), name, where))
    return op, c


EXTRA.update({op: convert_rnn for op in RNN_GATES})


# NonZero, ReverseSequence, MaxUnpool: the selection family, as ONNX Runtime's DirectML provider
# fills their descriptors (DmlOperatorNonZero.cpp, DmlOperatorReverseSequence.cpp,
# DmlOperatorMaxUnpool.cpp).

NONZERO_TYPES = TEN + BOOL


def _one_set(sets):
    if len(sets) != 1:
        raise Skip("data: {} data sets".format(len(sets)))
    return sets[0]


def _case(name, model, op, dml, attrs, inputs, expected, extra, where):
    c = {"name": "onnx-node." + (name[5:] if name.startswith("test_") else name),
         "source": "onnx:{}-{}#{}".format(op, opset_of(model, op), name), "op": dml,
         "attrs": attrs, "inputs": inputs, "expected": {"outputs": expected}}
    c["note"] = "ONNX {}-{} as {}; {} (ONNX's backend node test {}, {})".format(
        op, opset_of(model, op), dml, extra, name, where)
    return op, c


def convert_nonzero(name, model, sets, where):
    ins, outs = _one_set(sets)
    x_t, x = to_array(ins[0])
    _, y = to_array(outs[0])
    if x_t not in NONZERO_TYPES:
        raise Skip("type table: {} is not in NONZERO_COORDINATES' type table".format(x_t))
    if x.ndim == 0 or 0 in x.shape or x.ndim > 8:
        raise Skip("shape: {}; DirectML tensors have 1 to 8 dimensions of sizes above 0".format(
            list(x.shape)))
    m, rank = int(x.size), x.ndim
    rows = np.asarray(y).T.astype(np.uint32)  # {count, rank}
    inputs = {"InputTensor": case_tensor(x_t, x),
              "OutputCoordinatesTensor": {"type": "UINT32", "shape": [m, rank],
                                          "strides": [2, 2 * m]}}
    expected = {"OutputCountTensor": case_tensor("UINT32", np.array([rows.shape[0]])),
                "OutputCoordinatesTensor": case_tensor("UINT32", rows)}
    return _case(name, model, "NonZero", "DML_OPERATOR_NONZERO_COORDINATES", {}, inputs,
                 expected, "ONNX Runtime's form: count {1}, coordinates {M, rank} UINT32 with "
                 "strides {2, 2M}; the expected rows ONNX's output transposed", where)


def convert_reverse_sequence(name, model, sets, where):
    node = model.graph.node[0]
    attrs = attrs_of(node)
    ins, outs = _one_set(sets)
    (x_t, x), (l_t, lens) = to_array(ins[0]), to_array(ins[1])
    _, y = to_array(outs[0])
    if x_t not in TEN:
        raise Skip("type table: {} is not in REVERSE_SUBSEQUENCES' type table".format(x_t))
    rank = x.ndim
    if rank > 4:
        raise Skip("shape: {} dimensions".format(rank))
    batch = int(attrs.get("batch_axis", 1)) % rank
    time = int(attrs.get("time_axis", 0)) % rank
    pad = 4 - rank
    shape = [1] * pad + list(x.shape)
    lshape = list(shape)
    lshape[pad + time] = 1
    src = [1] * 4
    src[pad + batch] = x.shape[batch]
    lengths = case_tensor(l_t, np.asarray(lens).reshape(src), out_shape=lshape)
    inputs = {"InputTensor": case_tensor(x_t, x.reshape(shape)),
              "SequenceLengthsTensor": lengths}
    expected = {"OutputTensor": case_tensor(x_t, np.asarray(y).reshape(shape))}
    return _case(name, model, "ReverseSequence", "DML_OPERATOR_REVERSE_SUBSEQUENCES",
                 {"Axis": pad + time}, inputs, expected,
                 "padded to 4 dimensions; {} lengths along the batch axis {}, read by zero "
                 "strides elsewhere; Axis {} (time_axis {})".format(l_t, batch, pad + time, time),
                 where)


def convert_maxunpool(name, model, sets, where):
    ins, outs = _one_set(sets)
    (x_t, x), (i_t, idx) = to_array(ins[0]), to_array(ins[1])
    _, y = to_array(outs[0])
    if x_t not in TEN:
        raise Skip("type table: {} is not in MAX_UNPOOLING's type table".format(x_t))
    if x.ndim != 4:
        raise Skip("shape: {} dimensions; MAX_UNPOOLING takes 4".format(x.ndim))
    node = model.graph.node[0]
    attrs = attrs_of(node)
    kernel = list(attrs["kernel_shape"])
    strides = list(attrs.get("strides", [1] * len(kernel)))
    pads = list(attrs.get("pads", [0] * 2 * len(kernel)))
    default = [(x.shape[2 + d] - 1) * strides[d] + kernel[d] - pads[d] - pads[len(kernel) + d]
               for d in range(len(kernel))]
    if list(y.shape[2:]) != default:
        raise Skip("semantics: output_shape {} is not the default {}: ONNX reads the indices as "
                   "positions in the default shape, DirectML's MAX_UNPOOLING as flat positions "
                   "in the output it is given".format(list(y.shape), list(y.shape[:2]) + default))
    inputs = {"InputTensor": case_tensor(x_t, x),
              "IndicesTensor": case_tensor("UINT64", np.asarray(idx).astype(np.uint64))}
    expected = {"OutputTensor": case_tensor(x_t, y)}
    return _case(name, model, "MaxUnpool", "DML_OPERATOR_MAX_UNPOOLING", {}, inputs, expected,
                 "{} indices as UINT64; the output's shape {}".format(i_t, list(y.shape)), where)


EXTRA.update({"NonZero": convert_nonzero, "ReverseSequence": convert_reverse_sequence,
              "MaxUnpool": convert_maxunpool})


# ---------------------------------------------------------------------------------------
# RoiAlign and Col2Im: DML_OPERATOR_ROI_ALIGN1 and DML_OPERATOR_FOLD


def convert_roialign(name, model, sets, where):
    """RoiAlign as ROI_ALIGN1, as ONNX Runtime's DirectML provider maps it
    (DmlOperatorRoiAlign.cpp): spatial_scale for X and Y, OutOfBoundsInputValue 0,
    sampling_ratio 0 as samples in [1, 2^32 - 1] (else that count), LINEAR, InputPixelOffset 0.5
    for half_pixel (opset 16's default) and 0 for output_half_pixel (opset 10's behaviour),
    OutputPixelOffset -0.5; INT64 batch indices as UINT64. mode "max" is skipped: ONNX's
    reference takes the maximum of each sample's four weighted bilinear terms, DirectML the
    maximum of the interpolated samples (docs/operators.md)."""
    node = model.graph.node[0]
    op = node.op_type
    attrs = attrs_of(node)
    opset = opset_of(model, op)
    mode = attrs.get("mode", "avg")
    if mode != "avg":
        raise Skip("attribute: mode \"{}\"; ONNX's max takes the maximum of the weighted "
                   "bilinear terms, DirectML's the maximum of the samples".format(mode))
    if len(sets) != 1:
        raise Skip("data: {} data sets".format(len(sets)))
    ins, outs = sets[0]
    index = {vi.name: i for i, vi in enumerate(model.graph.input)}
    (x_t, x), (r_t, r), (b_t, b) = [to_array(ins[index[n]]) for n in node.input]
    out_t, out_a = to_array(outs[0])
    if x_t not in ("FLOAT32", "FLOAT16"):
        raise Skip("type table: {} is not FLOAT32 or FLOAT16".format(x_t))
    ctm = attrs.get("coordinate_transformation_mode", "half_pixel" if opset >= 16 else
                    "output_half_pixel")
    ratio = int(attrs.get("sampling_ratio", 0))
    scale = float(attrs.get("spatial_scale", 1.0))
    dml_attrs = {"ReductionFunction": "DML_REDUCE_FUNCTION_AVERAGE",
                 "InterpolationMode": "DML_INTERPOLATION_MODE_LINEAR",
                 "SpatialScaleX": scale, "SpatialScaleY": scale,
                 "InputPixelOffset": 0.5 if ctm == "half_pixel" else 0.0,
                 "OutputPixelOffset": -0.5, "OutOfBoundsInputValue": 0.0,
                 "MinimumSamplesPerOutput": ratio if ratio else 1,
                 "MaximumSamplesPerOutput": ratio if ratio else 4294967295}
    inputs = {"InputTensor": case_tensor(x_t, x), "ROITensor": case_tensor(r_t, r),
              "BatchIndicesTensor": case_tensor("UINT64", np.asarray(b).astype(np.uint64))}
    c = {"name": "onnx-node." + name[5:], "source": "onnx:{}-{}#{}".format(op, opset, name),
         "op": "DML_OPERATOR_ROI_ALIGN1", "attrs": dml_attrs, "inputs": inputs,
         "expected": {"outputs": {"OutputTensor": case_tensor(out_t, out_a)}}}
    c["note"] = ("ONNX {}-{} as DML_OPERATOR_ROI_ALIGN1; {}, sampling_ratio {} (ONNX's backend "
                 "node test {}, {})".format(op, opset, ctm, ratio, name, where))
    return op, c


def convert_col2im(name, model, sets, where):
    """Col2Im as FOLD (ONNX Runtime's DirectML provider's DmlOperatorCol2Im.cpp): block_shape
    as WindowSizes, strides, dilations, pads' begins and ends as StartPadding and EndPadding;
    the output {N, C, image_shape...}."""
    node = model.graph.node[0]
    op = node.op_type
    attrs = attrs_of(node)
    if len(sets) != 1:
        raise Skip("data: {} data sets".format(len(sets)))
    ins, outs = sets[0]
    index = {vi.name: i for i, vi in enumerate(model.graph.input)}
    (x_t, x), (_, image), (_, block) = [to_array(ins[index[n]]) for n in node.input]
    out_t, out_a = to_array(outs[0])
    n = len(block)
    pads = [int(v) for v in attrs.get("pads", [0] * (2 * n))]
    dml_attrs = {"DimensionCount": n, "WindowSizes": [int(v) for v in block],
                 "Strides": [int(v) for v in attrs.get("strides", [1] * n)],
                 "Dilations": [int(v) for v in attrs.get("dilations", [1] * n)],
                 "StartPadding": pads[:n], "EndPadding": pads[n:]}
    c = {"name": "onnx-node." + name[5:], "source": "onnx:{}-{}#{}".format(
        op, opset_of(model, op), name), "op": "DML_OPERATOR_FOLD", "attrs": dml_attrs,
        "inputs": {"InputTensor": case_tensor(x_t, x)},
        "expected": {"outputs": {"OutputTensor": case_tensor(out_t, out_a)}}}
    c["note"] = "ONNX {}-{} as DML_OPERATOR_FOLD, image_shape {} (ONNX's backend node test {}, " \
        "{})".format(op, opset_of(model, op), [int(v) for v in image], name, where)
    return op, c


EXTRA.update({"RoiAlign": convert_roialign, "Col2Im": convert_col2im})


# Integer and quantized products and convolutions: MatMulInteger, QLinearMatMul, ConvInteger,
# QLinearConv as DML_OPERATOR_MATRIX_MULTIPLY_INTEGER, _QUANTIZED_LINEAR_MATRIX_MULTIPLY,
# _CONVOLUTION_INTEGER, _QUANTIZED_LINEAR_CONVOLUTION

INTMM_OPS = {"MatMulInteger": "MATRIX_MULTIPLY_INTEGER",
             "QLinearMatMul": "QUANTIZED_LINEAR_MATRIX_MULTIPLY",
             "ConvInteger": "CONVOLUTION_INTEGER",
             "QLinearConv": "QUANTIZED_LINEAR_CONVOLUTION"}
INTMM_MEMBERS = {
    "MatMulInteger": ["ATensor", "BTensor", "AZeroPointTensor", "BZeroPointTensor"],
    "QLinearMatMul": ["ATensor", "AScaleTensor", "AZeroPointTensor", "BTensor", "BScaleTensor",
                      "BZeroPointTensor", "OutputScaleTensor", "OutputZeroPointTensor"],
    "ConvInteger": ["InputTensor", "FilterTensor", "InputZeroPointTensor",
                    "FilterZeroPointTensor"],
    "QLinearConv": ["InputTensor", "InputScaleTensor", "InputZeroPointTensor", "FilterTensor",
                    "FilterScaleTensor", "FilterZeroPointTensor", "OutputScaleTensor",
                    "OutputZeroPointTensor", "BiasTensor"]}


def convert_intmm(name, model, sets, where):
    """MatMulInteger, QLinearMatMul, ConvInteger and QLinearConv as DirectML's integer and
    quantized operators, as ONNX Runtime's DirectML provider fills them: A and B broadcast to
    the output's batch by zero strides (2 to 4 dimensions); a 1-D per-row A scale or zero point
    [M] as {M, 1}, a per-column B one [N] as {N}, scalars as {1}; a convolution's per-channel
    filter scale or zero point [Cout] and bias [Cout] as {1, Cout, 1, 1}, scalars as
    {1, 1, 1, 1}. QLinearMatMul's FLOAT16 scales (opset 21) are not in DirectML's table
    (FLOAT32)."""
    g = model.graph
    node = g.node[0]
    op = node.op_type
    dml = "DML_OPERATOR_" + INTMM_OPS[op]
    attrs = attrs_of(node)
    if len(sets) != 1:
        raise Skip("data: {} data sets".format(len(sets)))
    ins, outs = sets[0]
    index = {vi.name: i for i, vi in enumerate(g.input)}
    values = [to_array(ins[index[n]]) if n else None for n in node.input]
    out_t, y = to_array(outs[0])
    members = INTMM_MEMBERS[op]
    for m, v in zip(members, values):
        if v is not None and "Scale" in m and v[0] != "FLOAT32":
            raise Skip("type table: {} {} is not in {}'s (FLOAT32)".format(m, v[0],
                                                                           INTMM_OPS[op]))
    inputs, extra = {}, []
    conv = op in ("ConvInteger", "QLinearConv")
    if conv:
        x = values[0][1]
        sp = x.ndim - 2
        if sp != 2 and not (op == "ConvInteger" and sp == 1):
            raise Skip("shape: {} spatial dimensions".format(sp))
        w = values[members.index("FilterTensor")][1]
        cout = w.shape[0]
        k = list(attrs.get("kernel_shape", w.shape[2:]))
        s = list(attrs.get("strides", [1] * sp))
        d = list(attrs.get("dilations", [1] * sp))
        start, end = conv_pads(attrs, list(x.shape[2:]), k, s, d, False)
        dml_attrs = {"Strides": s, "Dilations": d, "StartPadding": start, "EndPadding": end,
                     "GroupCount": attrs.get("group", 1)}
        for m, v in zip(members, values):
            if v is None:
                continue
            t, a = v
            if m not in ("InputTensor", "FilterTensor"):
                a = a.reshape([1, -1] + [1] * sp) if a.size == cout and a.size > 1 else \
                    a.reshape([1] * (sp + 2))
            inputs[m] = case_tensor(t, a)
    else:
        a_v, b_v = values[0][1], values[members.index("BTensor")][1]
        if a_v.ndim < 2 or b_v.ndim < 2 or y.ndim > 4:
            raise Skip("shape: A {} B {} (2 to 4 dimensions)".format(list(a_v.shape),
                                                                     list(b_v.shape)))
        batch = list(y.shape[:-2])
        dml_attrs = None
        for m, v in zip(members, values):
            if v is None:
                continue
            t, a = v
            if m == "ATensor":
                inputs[m] = case_tensor(t, a, batch + list(a.shape[-2:]))
            elif m == "BTensor":
                inputs[m] = case_tensor(t, a, batch + list(b_v.shape[-2:]))
            elif a.ndim == 0 or a.size == 1:
                inputs[m] = case_tensor(t, a.reshape([1]))
            elif a.ndim == 1 and m.startswith("A"):
                inputs[m] = case_tensor(t, a.reshape([-1, 1]))
                extra.append("{} [M] as {{M, 1}}".format(m))
            else:
                inputs[m] = case_tensor(t, a)
    c = {"name": "onnx-node." + (name[5:] if name.startswith("test_") else name),
         "source": "onnx:{}-{}#{}".format(op, opset_of(model, op), name), "op": dml,
         "inputs": inputs, "expected": {"outputs": {"OutputTensor": case_tensor(out_t, y)}}}
    if dml_attrs:
        c["attrs"] = dml_attrs
    c["note"] = "ONNX {}-{} as {}".format(op, opset_of(model, op), INTMM_OPS[op]) + \
        ("; " + "; ".join(extra) if extra else "") + \
        " (ONNX's backend node test {}, {})".format(name, where)
    return op, c


EXTRA.update({op: convert_intmm for op in INTMM_OPS})


def base_name(name):
    return re.sub(r"_expanded(_ver\d+)?$", "", name)


def main():
    import argparse

    import onnx

    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--data", help="read the serialized tests test_*/ under DATA (e.g. an onnx "
                    "checkout's onnx/backend/test/data/node) instead of the installed onnx's")
    ap.add_argument("--out", default=OUT, help="the folder to write (default: %(default)s)")
    args = ap.parse_args()

    converted = defaultdict(list)
    skipped = []  # (test, op, reason)
    single = {}
    multi = []
    where = ""
    for name, model, sets, where in load_tests(args.data):
        nodes = model.graph.node
        if len(nodes) == 1 and (nodes[0].op_type in OPS or nodes[0].op_type in EXTRA):
            single[name] = (model, sets, where)
        elif any(n.op_type in OPS or n.op_type in EXTRA for n in nodes):
            multi.append((name, model))
    for name, (model, sets, where) in sorted(single.items()):
        op = model.graph.node[0].op_type
        try:
            op, c = EXTRA.get(op, convert)(name, model, sets, where)
            converted[op].append(c)
        except Skip as e:
            skipped.append((name, op, str(e)))
    # Function expansions of these operators' tests: graphs of several nodes.
    ours = {base_name(n) for n in single}
    for name, model in sorted(multi):
        if base_name(name) in ours:
            ops = sorted({n.op_type for n in model.graph.node})
            skipped.append((name, model.graph.node[0].op_type if len(ops) == 1 else "+".join(ops),
                            "expanded: a function body of {} nodes, not one DirectML "
                            "operator".format(len(model.graph.node))))
    clear_out(args.out)
    total = 0
    for op, cases in sorted(converted.items()):
        write(os.path.join(args.out, op.lower() + ".json"), cases)
        total += len(cases)
    reasons = Counter(r.split(":")[0] for _, _, r in skipped)
    origin = ("the in-memory tests of `onnx.backend.test.loader.load_model_tests(kind=\"node\")`"
              if where.startswith("load_model_tests") else
              "its serialized tests (`test_*/model.onnx`, `test_data_set_*/*.pb`)")
    with open(os.path.join(args.out, "README.md"), "w") as f:
        f.write("# ONNX backend node tests as DirectML cases\n\n")
        f.write("Written by `conformance/gen/onnx_node_tests.py` (do not edit by hand) from onnx "
                "{}, {}: ONNX's backend node tests of the ONNX operators that map onto "
                "DirectML's element-wise operators, activations, batch normalization, LRN, scans, "
                "top-k, normalisations, reductions, pooling, resampling, matrix products, "
                "convolutions, linear quantization, scatters, one-hot and eye-like "
                "matrices, recurrent layers, nonzero coordinates, sequence reversal, max "
                "unpooling, regions of interest and col2im, the integer and quantized "
                "products and convolutions, dynamic and blocked quantization, "
                "one DirectML-operator case "
                "per test, one file per ONNX operator. The inputs and expected outputs are "
                "ONNX's own; the operator mapping is the script's docstring.\n\n".format(
                    onnx.__version__, origin))
        f.write("{} tests converted, {} skipped: {}.\n\n".format(
            total, len(skipped), ", ".join("{} {}".format(n, r)
                                          for r, n in sorted(reasons.items()))))
        f.write("| test | ONNX | skipped because |\n|---|---|---|\n")
        for name, op, reason in sorted(skipped):
            f.write("| `{}` | {} | {} |\n".format(name, op, reason.replace("|", "\\|")))
    print("{} cases in {} files, {} skipped: {}".format(total, len(converted), len(skipped),
                                                        dict(reasons)))


if __name__ == "__main__":
    main()
