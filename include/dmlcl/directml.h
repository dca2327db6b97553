/* SPDX-License-Identifier: MIT */
/*
 * dmlcl/directml.h: DirectML 1.15's type surface (feature level 6.4) for C11
 * and C++.
 *
 * Every enum and value, every operator description, the binding, graph and
 * feature-query structures and the constants, with DirectML's names, member
 * order, member types and DML_TARGET_VERSION guards, so descriptor-building
 * code written for DirectML compiles unchanged. It is the one declaration of
 * these types: the C API (dmlcl/dmlcl.h) and the C++ COM API (<DirectML.h>,
 * which adds the IDML* interfaces) both include it.
 *
 * Differences from Microsoft's header, all deliberate:
 * - C typedefs (typedef struct X {...} X;) so C code can write DML_TENSOR_DESC;
 *   the interfaces are opaque structs in C, C++ classes in <DirectML.h>.
 * - The D3D12 objects DirectML takes are OpenCL and dmlcl objects, with no
 *   cast in user code: ID3D12Resource is a cl_mem (struct _cl_mem),
 *   ID3D12CommandList a cl_command_queue (struct _cl_command_queue),
 *   ID3D12Device a dmlcl_device. Descriptor-heap handles exist for
 *   DML_BINDING_TABLE_DESC and are not needed by dmlcl. d3d12.h must not be
 *   included alongside (it declares these names as COM interfaces).
 * - No Windows headers: the scalar typedefs below are the ones
 *   DirectX-Headers' wsl/winadapter.h declares (same underlying types), so
 *   either header may come first in a translation unit.
 * - DMLCalcBufferTensorSize is not declared here (DirectML.h does not declare
 *   it either); see dmlcl/dmlcl.h.
 */
#ifndef DMLCL_DIRECTML_H
#define DMLCL_DIRECTML_H

#include <stddef.h>
#include <stdint.h>

/* ---- Windows scalar types -------------------------------------------------- */

/*
 * Identical to wsl/winadapter.h's (BOOL is unsigned there, as here): a
 * typedef may be repeated with the same type in C11 and C++, so no guard
 * against winadapter is needed. A real Windows SDK brings its own.
 */
#if !defined(_WINDEF_) && !defined(_MINWINDEF_) && !defined(DMLCL_WINDOWS_TYPES_DEFINED)
#define DMLCL_WINDOWS_TYPES_DEFINED
typedef unsigned char BYTE;
typedef int8_t INT8;
typedef uint8_t UINT8;
typedef int16_t INT16;
typedef uint16_t UINT16;
typedef int32_t INT;
typedef uint32_t UINT;
typedef int32_t INT32;
typedef uint32_t UINT32;
typedef int64_t INT64;
typedef uint64_t UINT64;
typedef float FLOAT;
typedef double DOUBLE;
typedef uint32_t BOOL;
typedef size_t SIZE_T;
typedef int32_t LONG;
typedef LONG HRESULT;
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* ---- Target version ---------------------------------------------------------- */

/*
 * Declarations appear for DirectML releases up to DML_TARGET_VERSION, chosen
 * as DirectML.h chooses it: predefine it to target an older feature level;
 * otherwise the latest (0x6400) when no Windows target is set (always the
 * case off Windows) or DML_TARGET_VERSION_USE_LATEST is defined, else the
 * level that shipped with the targeted Windows release.
 */
#ifndef DML_TARGET_VERSION
#if !defined(NTDDI_VERSION) || defined(DML_TARGET_VERSION_USE_LATEST)
#define DML_TARGET_VERSION 0x6400
#elif defined(NTDDI_WIN10_ZN) && NTDDI_VERSION >= NTDDI_WIN10_ZN
#define DML_TARGET_VERSION 0x6000
#elif defined(NTDDI_WIN10_NI) && NTDDI_VERSION >= NTDDI_WIN10_NI
#define DML_TARGET_VERSION 0x5000
#elif defined(NTDDI_WIN10_CO) && NTDDI_VERSION >= NTDDI_WIN10_CO
#define DML_TARGET_VERSION 0x4000
#elif defined(NTDDI_WIN10_FE) && NTDDI_VERSION >= NTDDI_WIN10_FE
#define DML_TARGET_VERSION 0x3000
#elif defined(NTDDI_WIN10_VB) && NTDDI_VERSION >= NTDDI_WIN10_VB
#define DML_TARGET_VERSION 0x2000
#else
#define DML_TARGET_VERSION 0x1000
#endif
#endif

/* ---- Constants ------------------------------------------------------------------ */

static const UINT DML_TENSOR_DIMENSION_COUNT_MAX = 5;
#if DML_TARGET_VERSION >= 0x3000
static const UINT DML_TENSOR_DIMENSION_COUNT_MAX1 = 8;
#endif
static const UINT DML_TEMPORARY_BUFFER_ALIGNMENT = 256;
static const UINT DML_PERSISTENT_BUFFER_ALIGNMENT = 256;
static const UINT DML_MINIMUM_BUFFER_TENSOR_ALIGNMENT = 16;

/* ---- D3D12 objects, as OpenCL and dmlcl objects ---------------------------------- */

struct _cl_mem;
struct _cl_command_queue;
struct dmlcl_device;
typedef struct _cl_mem ID3D12Resource;
typedef struct _cl_command_queue ID3D12CommandList;
typedef struct dmlcl_device ID3D12Device;
/* Never defined: dmlcl needs no descriptor heap; the handles are carried only. */
typedef struct ID3D12DescriptorHeap ID3D12DescriptorHeap;

typedef struct D3D12_CPU_DESCRIPTOR_HANDLE {
    SIZE_T ptr;
} D3D12_CPU_DESCRIPTOR_HANDLE;

typedef struct D3D12_GPU_DESCRIPTOR_HANDLE {
    UINT64 ptr;
} D3D12_GPU_DESCRIPTOR_HANDLE;

/* ---- Interfaces (classes in <DirectML.h>, opaque in C) --------------------------- */

typedef struct IDMLObject IDMLObject;
typedef struct IDMLDevice IDMLDevice;
typedef struct IDMLDeviceChild IDMLDeviceChild;
typedef struct IDMLPageable IDMLPageable;
typedef struct IDMLDispatchable IDMLDispatchable;
typedef struct IDMLOperator IDMLOperator;
typedef struct IDMLCompiledOperator IDMLCompiledOperator;
typedef struct IDMLOperatorInitializer IDMLOperatorInitializer;
typedef struct IDMLBindingTable IDMLBindingTable;
typedef struct IDMLCommandRecorder IDMLCommandRecorder;

/* ---- Tensors ------------------------------------------------------------------------ */

typedef enum DML_TENSOR_DATA_TYPE {
    DML_TENSOR_DATA_TYPE_UNKNOWN,
    DML_TENSOR_DATA_TYPE_FLOAT32,
    DML_TENSOR_DATA_TYPE_FLOAT16,
    DML_TENSOR_DATA_TYPE_UINT32,
    DML_TENSOR_DATA_TYPE_UINT16,
    DML_TENSOR_DATA_TYPE_UINT8,
    DML_TENSOR_DATA_TYPE_INT32,
    DML_TENSOR_DATA_TYPE_INT16,
    DML_TENSOR_DATA_TYPE_INT8,
    DML_TENSOR_DATA_TYPE_FLOAT64,
    DML_TENSOR_DATA_TYPE_UINT64,
    DML_TENSOR_DATA_TYPE_INT64,
#if DML_TARGET_VERSION >= 0x6300
    DML_TENSOR_DATA_TYPE_UINT4,
    DML_TENSOR_DATA_TYPE_INT4,
#endif
} DML_TENSOR_DATA_TYPE;

typedef enum DML_TENSOR_TYPE {
    DML_TENSOR_TYPE_INVALID,
    DML_TENSOR_TYPE_BUFFER,
} DML_TENSOR_TYPE;

typedef enum DML_TENSOR_FLAGS {
    DML_TENSOR_FLAG_NONE = 0x0,
    DML_TENSOR_FLAG_OWNED_BY_DML = 0x1,
} DML_TENSOR_FLAGS;

typedef struct DML_BUFFER_TENSOR_DESC {
    DML_TENSOR_DATA_TYPE DataType;
    DML_TENSOR_FLAGS Flags;
    UINT DimensionCount;
    const UINT *Sizes;   /* DimensionCount entries */
    const UINT *Strides; /* DimensionCount entries, in elements; NULL = packed */
    UINT64 TotalTensorSizeInBytes;
    UINT GuaranteedBaseOffsetAlignment;
} DML_BUFFER_TENSOR_DESC;

typedef struct DML_TENSOR_DESC {
    DML_TENSOR_TYPE Type;
    const void *Desc; /* a DML_BUFFER_TENSOR_DESC for DML_TENSOR_TYPE_BUFFER */
} DML_TENSOR_DESC;

/* ---- Operator types ------------------------------------------------------------------ */

#include "dmlcl/directml_optype.h"

/* ---- Enumerations and structures the operator descriptions use ------------------ */

typedef enum DML_REDUCE_FUNCTION {
    DML_REDUCE_FUNCTION_ARGMAX,
    DML_REDUCE_FUNCTION_ARGMIN,
    DML_REDUCE_FUNCTION_AVERAGE,
    DML_REDUCE_FUNCTION_L1,
    DML_REDUCE_FUNCTION_L2,
    DML_REDUCE_FUNCTION_LOG_SUM,
    DML_REDUCE_FUNCTION_LOG_SUM_EXP,
    DML_REDUCE_FUNCTION_MAX,
    DML_REDUCE_FUNCTION_MIN,
    DML_REDUCE_FUNCTION_MULTIPLY,
    DML_REDUCE_FUNCTION_SUM,
    DML_REDUCE_FUNCTION_SUM_SQUARE,
} DML_REDUCE_FUNCTION;

typedef enum DML_MATRIX_TRANSFORM {
    DML_MATRIX_TRANSFORM_NONE,
    DML_MATRIX_TRANSFORM_TRANSPOSE,
} DML_MATRIX_TRANSFORM;

typedef enum DML_CONVOLUTION_MODE {
    DML_CONVOLUTION_MODE_CONVOLUTION,
    DML_CONVOLUTION_MODE_CROSS_CORRELATION,
} DML_CONVOLUTION_MODE;

typedef enum DML_CONVOLUTION_DIRECTION {
    DML_CONVOLUTION_DIRECTION_FORWARD,
    DML_CONVOLUTION_DIRECTION_BACKWARD,
} DML_CONVOLUTION_DIRECTION;

typedef enum DML_PADDING_MODE {
    DML_PADDING_MODE_CONSTANT,
    DML_PADDING_MODE_EDGE,
    DML_PADDING_MODE_REFLECTION,
#if DML_TARGET_VERSION >= 0x3000
    DML_PADDING_MODE_SYMMETRIC,
#endif
#if DML_TARGET_VERSION >= 0x6400
    DML_PADDING_MODE_WRAP,
#endif
} DML_PADDING_MODE;

typedef enum DML_INTERPOLATION_MODE {
    DML_INTERPOLATION_MODE_NEAREST_NEIGHBOR,
    DML_INTERPOLATION_MODE_LINEAR,
} DML_INTERPOLATION_MODE;

typedef struct DML_SCALE_BIAS {
    FLOAT Scale;
    FLOAT Bias;
} DML_SCALE_BIAS;

typedef struct DML_SIZE_2D {
    UINT Width;
    UINT Height;
} DML_SIZE_2D;

typedef enum DML_RECURRENT_NETWORK_DIRECTION {
    DML_RECURRENT_NETWORK_DIRECTION_FORWARD,
    DML_RECURRENT_NETWORK_DIRECTION_BACKWARD,
    DML_RECURRENT_NETWORK_DIRECTION_BIDIRECTIONAL,
} DML_RECURRENT_NETWORK_DIRECTION;

#if DML_TARGET_VERSION >= 0x2100

typedef enum DML_ROUNDING_MODE {
    DML_ROUNDING_MODE_HALVES_TO_NEAREST_EVEN,
    DML_ROUNDING_MODE_TOWARD_ZERO,
    DML_ROUNDING_MODE_TOWARD_INFINITY,
} DML_ROUNDING_MODE;

typedef enum DML_IS_INFINITY_MODE {
    DML_IS_INFINITY_MODE_EITHER = 0,
    DML_IS_INFINITY_MODE_POSITIVE = 1,
    DML_IS_INFINITY_MODE_NEGATIVE = 2,
} DML_IS_INFINITY_MODE;

typedef enum DML_AXIS_DIRECTION {
    DML_AXIS_DIRECTION_INCREASING = 0,
    DML_AXIS_DIRECTION_DECREASING = 1,
} DML_AXIS_DIRECTION;

typedef enum DML_DEPTH_SPACE_ORDER {
    DML_DEPTH_SPACE_ORDER_DEPTH_COLUMN_ROW,
    DML_DEPTH_SPACE_ORDER_COLUMN_ROW_DEPTH,
} DML_DEPTH_SPACE_ORDER;

/* A scalar of any tensor data type; which member is meant travels beside it. */
typedef union DML_SCALAR_UNION {
    BYTE Bytes[8];
    INT8 Int8;
    UINT8 UInt8;
    INT16 Int16;
    UINT16 UInt16;
    INT32 Int32;
    UINT32 UInt32;
    INT64 Int64;
    UINT64 UInt64;
    FLOAT Float32;
    DOUBLE Float64;
} DML_SCALAR_UNION;

#endif /* DML_TARGET_VERSION >= 0x2100 */

#if DML_TARGET_VERSION >= 0x3000
typedef enum DML_RANDOM_GENERATOR_TYPE {
    DML_RANDOM_GENERATOR_TYPE_PHILOX_4X32_10
} DML_RANDOM_GENERATOR_TYPE;
#endif

#if DML_TARGET_VERSION >= 0x6100
typedef enum DML_MULTIHEAD_ATTENTION_MASK_TYPE {
    DML_MULTIHEAD_ATTENTION_MASK_TYPE_NONE,
    DML_MULTIHEAD_ATTENTION_MASK_TYPE_KEY_SEQUENCE_LENGTH,
    DML_MULTIHEAD_ATTENTION_MASK_TYPE_KEY_SEQUENCE_END_START,
    DML_MULTIHEAD_ATTENTION_MASK_TYPE_KEY_QUERY_SEQUENCE_LENGTH_START_END,
    DML_MULTIHEAD_ATTENTION_MASK_TYPE_BOOLEAN,
} DML_MULTIHEAD_ATTENTION_MASK_TYPE;
#endif

#if DML_TARGET_VERSION >= 0x6300
typedef enum DML_QUANTIZATION_TYPE {
    DML_QUANTIZATION_TYPE_NONE,
    DML_QUANTIZATION_TYPE_SCALE,
    DML_QUANTIZATION_TYPE_SCALE_ZERO_POINT,
} DML_QUANTIZATION_TYPE;
#endif

/* ---- Operator descriptions ---------------------------------------------------------- */

typedef struct DML_OPERATOR_DESC {
    DML_OPERATOR_TYPE Type;
    const void *Desc; /* the DML_*_OPERATOR_DESC that Type names */
} DML_OPERATOR_DESC;

/*
 * One struct per operator, in DirectML's order, by the release that added
 * them. Optional tensors and FusedActivation may be NULL; array members hold
 * the count member's number of entries.
 */
#include "dmlcl/directml_ops_1.h"
#include "dmlcl/directml_ops_1nn.h"
#include "dmlcl/directml_ops_2.h"
#include "dmlcl/directml_ops_3.h"
#include "dmlcl/directml_ops_5.h"

/* ---- Feature support queries --------------------------------------------------------- */

#if DML_TARGET_VERSION >= 0x2000
typedef enum DML_FEATURE_LEVEL {
    DML_FEATURE_LEVEL_1_0 = 0x1000,
    DML_FEATURE_LEVEL_2_0 = 0x2000,
    DML_FEATURE_LEVEL_2_1 = 0x2100,
    DML_FEATURE_LEVEL_3_0 = 0x3000,
    DML_FEATURE_LEVEL_3_1 = 0x3100,
    DML_FEATURE_LEVEL_4_0 = 0x4000,
    DML_FEATURE_LEVEL_4_1 = 0x4100,
    DML_FEATURE_LEVEL_5_0 = 0x5000,
    DML_FEATURE_LEVEL_5_1 = 0x5100,
    DML_FEATURE_LEVEL_5_2 = 0x5200,
    DML_FEATURE_LEVEL_6_0 = 0x6000,
    DML_FEATURE_LEVEL_6_1 = 0x6100,
    DML_FEATURE_LEVEL_6_2 = 0x6200,
    DML_FEATURE_LEVEL_6_3 = 0x6300,
    DML_FEATURE_LEVEL_6_4 = 0x6400,
} DML_FEATURE_LEVEL;
#endif

typedef enum DML_FEATURE {
    DML_FEATURE_TENSOR_DATA_TYPE_SUPPORT,
#if DML_TARGET_VERSION >= 0x2000
    DML_FEATURE_FEATURE_LEVELS,
#endif
} DML_FEATURE;

typedef struct DML_FEATURE_QUERY_TENSOR_DATA_TYPE_SUPPORT {
    DML_TENSOR_DATA_TYPE DataType;
} DML_FEATURE_QUERY_TENSOR_DATA_TYPE_SUPPORT;

typedef struct DML_FEATURE_DATA_TENSOR_DATA_TYPE_SUPPORT {
    BOOL IsSupported;
} DML_FEATURE_DATA_TENSOR_DATA_TYPE_SUPPORT;

#if DML_TARGET_VERSION >= 0x2000
typedef struct DML_FEATURE_QUERY_FEATURE_LEVELS {
    UINT RequestedFeatureLevelCount;
    const DML_FEATURE_LEVEL *RequestedFeatureLevels;
} DML_FEATURE_QUERY_FEATURE_LEVELS;

typedef struct DML_FEATURE_DATA_FEATURE_LEVELS {
    DML_FEATURE_LEVEL MaxSupportedFeatureLevel;
} DML_FEATURE_DATA_FEATURE_LEVELS;
#endif

/* ---- Device: binding tables and flags ----------------------------------------------- */

typedef struct DML_BINDING_TABLE_DESC {
    IDMLDispatchable *Dispatchable;
    D3D12_CPU_DESCRIPTOR_HANDLE CPUDescriptorHandle;
    D3D12_GPU_DESCRIPTOR_HANDLE GPUDescriptorHandle;
    UINT SizeInDescriptors;
} DML_BINDING_TABLE_DESC;

typedef enum DML_EXECUTION_FLAGS {
    DML_EXECUTION_FLAG_NONE = 0,
    DML_EXECUTION_FLAG_ALLOW_HALF_PRECISION_COMPUTATION = 0x1,
    DML_EXECUTION_FLAG_DISABLE_META_COMMANDS = 0x2,
    DML_EXECUTION_FLAG_DESCRIPTORS_VOLATILE = 0x4,
} DML_EXECUTION_FLAGS;

typedef enum DML_CREATE_DEVICE_FLAGS {
    DML_CREATE_DEVICE_FLAG_NONE = 0,
    DML_CREATE_DEVICE_FLAG_DEBUG = 0x1,
} DML_CREATE_DEVICE_FLAGS;

typedef struct DML_BINDING_PROPERTIES {
    UINT RequiredDescriptorCount;
    UINT64 TemporaryResourceSize;
    UINT64 PersistentResourceSize;
} DML_BINDING_PROPERTIES;

/* ---- Bindings --------------------------------------------------------------------------- */

typedef enum DML_BINDING_TYPE {
    DML_BINDING_TYPE_NONE,
    DML_BINDING_TYPE_BUFFER,
    DML_BINDING_TYPE_BUFFER_ARRAY,
} DML_BINDING_TYPE;

typedef struct DML_BINDING_DESC {
    DML_BINDING_TYPE Type;
    const void *Desc; /* DML_BUFFER_BINDING or DML_BUFFER_ARRAY_BINDING; NULL for NONE */
} DML_BINDING_DESC;

typedef struct DML_BUFFER_BINDING {
    ID3D12Resource *Buffer; /* a cl_mem; NULL binds nothing */
    UINT64 Offset;
    UINT64 SizeInBytes;
} DML_BUFFER_BINDING;

typedef struct DML_BUFFER_ARRAY_BINDING {
    UINT BindingCount;
    const DML_BUFFER_BINDING *Bindings;
} DML_BUFFER_ARRAY_BINDING;

/* ---- Graphs (IDMLDevice1::CompileGraph) ------------------------------------------------ */

#if DML_TARGET_VERSION >= 0x2100

typedef enum DML_GRAPH_EDGE_TYPE {
    DML_GRAPH_EDGE_TYPE_INVALID,
    DML_GRAPH_EDGE_TYPE_INPUT,
    DML_GRAPH_EDGE_TYPE_OUTPUT,
    DML_GRAPH_EDGE_TYPE_INTERMEDIATE,
} DML_GRAPH_EDGE_TYPE;

typedef struct DML_GRAPH_EDGE_DESC {
    DML_GRAPH_EDGE_TYPE Type;
    const void *Desc; /* the DML_*_GRAPH_EDGE_DESC that Type names */
} DML_GRAPH_EDGE_DESC;

/* Names are optional (NULL) and only for diagnostics. */
typedef struct DML_INPUT_GRAPH_EDGE_DESC {
    UINT GraphInputIndex;
    UINT ToNodeIndex;
    UINT ToNodeInputIndex;
    const char *Name;
} DML_INPUT_GRAPH_EDGE_DESC;

typedef struct DML_OUTPUT_GRAPH_EDGE_DESC {
    UINT FromNodeIndex;
    UINT FromNodeOutputIndex;
    UINT GraphOutputIndex;
    const char *Name;
} DML_OUTPUT_GRAPH_EDGE_DESC;

typedef struct DML_INTERMEDIATE_GRAPH_EDGE_DESC {
    UINT FromNodeIndex;
    UINT FromNodeOutputIndex;
    UINT ToNodeIndex;
    UINT ToNodeInputIndex;
    const char *Name;
} DML_INTERMEDIATE_GRAPH_EDGE_DESC;

typedef enum DML_GRAPH_NODE_TYPE {
    DML_GRAPH_NODE_TYPE_INVALID,
    DML_GRAPH_NODE_TYPE_OPERATOR,
#if DML_TARGET_VERSION >= 0x6200
    DML_GRAPH_NODE_TYPE_CONSTANT
#endif
} DML_GRAPH_NODE_TYPE;

typedef struct DML_GRAPH_NODE_DESC {
    DML_GRAPH_NODE_TYPE Type;
    const void *Desc; /* the DML_*_GRAPH_NODE_DESC that Type names */
} DML_GRAPH_NODE_DESC;

typedef struct DML_OPERATOR_GRAPH_NODE_DESC {
    IDMLOperator *Operator;
    const char *Name;
} DML_OPERATOR_GRAPH_NODE_DESC;

#if DML_TARGET_VERSION >= 0x6200
typedef struct DML_CONSTANT_DATA_GRAPH_NODE_DESC {
    const void *Data; /* DataSize bytes */
    SIZE_T DataSize;
    const char *Name;
} DML_CONSTANT_DATA_GRAPH_NODE_DESC;
#endif

typedef struct DML_GRAPH_DESC {
    UINT InputCount;
    UINT OutputCount;
    UINT NodeCount;
    const DML_GRAPH_NODE_DESC *Nodes;
    UINT InputEdgeCount;
    const DML_GRAPH_EDGE_DESC *InputEdges;
    UINT OutputEdgeCount;
    const DML_GRAPH_EDGE_DESC *OutputEdges;
    UINT IntermediateEdgeCount;
    const DML_GRAPH_EDGE_DESC *IntermediateEdges;
} DML_GRAPH_DESC;

#endif /* DML_TARGET_VERSION >= 0x2100 */

#ifdef __cplusplus
} /* extern "C" */

/*
 * Bitwise operators for the flag enums (DirectML declares them with
 * DEFINE_ENUM_FLAG_OPERATORS), so `flags |= DML_EXECUTION_FLAG_...` compiles
 * in C++ with or without winadapter.h.
 */
#define DMLCL_FLAG_OPERATORS_(E)                                     \
    extern "C++" {                                                   \
    inline constexpr E operator|(E a, E b)                           \
    {                                                                \
        return E(static_cast<int32_t>(a) | static_cast<int32_t>(b)); \
    }                                                                \
    inline constexpr E operator&(E a, E b)                           \
    {                                                                \
        return E(static_cast<int32_t>(a) & static_cast<int32_t>(b)); \
    }                                                                \
    inline constexpr E operator^(E a, E b)                           \
    {                                                                \
        return E(static_cast<int32_t>(a) ^ static_cast<int32_t>(b)); \
    }                                                                \
    inline constexpr E operator~(E a)                                \
    {                                                                \
        return E(~static_cast<int32_t>(a));                          \
    }                                                                \
    inline E &operator|=(E &a, E b)                                  \
    {                                                                \
        return a = a | b;                                            \
    }                                                                \
    inline E &operator&=(E &a, E b)                                  \
    {                                                                \
        return a = a & b;                                            \
    }                                                                \
    inline E &operator^=(E &a, E b)                                  \
    {                                                                \
        return a = a ^ b;                                            \
    }                                                                \
    }
DMLCL_FLAG_OPERATORS_(DML_TENSOR_FLAGS)
DMLCL_FLAG_OPERATORS_(DML_EXECUTION_FLAGS)
DMLCL_FLAG_OPERATORS_(DML_CREATE_DEVICE_FLAGS)
#undef DMLCL_FLAG_OPERATORS_

#endif /* __cplusplus */

#endif /* DMLCL_DIRECTML_H */
