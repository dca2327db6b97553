/* SPDX-License-Identifier: MIT */
/*
 * dmlcl/dmlcl.h: DirectML's object model on OpenCL.
 *
 *   device  ->  operator  ->  compiled operator  ->  binding table  ->  dispatch
 *
 * Every function returns an HRESULT with the Windows numbers, so FAILED() and
 * SUCCEEDED() checks in ported code keep working. Every failure leaves a
 * message naming the operator, the DirectML field, its value and the rule;
 * read it with dmlcl_last_error() (thread-local) or a log callback.
 */
#ifndef DMLCL_DMLCL_H
#define DMLCL_DMLCL_H

#include <stddef.h>
#include <stdint.h>

#ifndef CL_TARGET_OPENCL_VERSION
#define CL_TARGET_OPENCL_VERSION 120
#endif
#include <CL/cl.h>

#include "dmlcl/directml.h"
#include "dmlcl/extensions.h"

#ifdef __cplusplus
extern "C" {
#endif

#define DMLCL_VERSION_MAJOR 0
#define DMLCL_VERSION_MINOR 1
#define DMLCL_VERSION_PATCH 0
#define DMLCL_VERSION_HEX \
    ((DMLCL_VERSION_MAJOR << 16) | (DMLCL_VERSION_MINOR << 8) | DMLCL_VERSION_PATCH)

#if defined(_WIN32) && defined(DMLCL_BUILDING)
#define DMLCL_API __declspec(dllexport)
#elif defined(__GNUC__)
#define DMLCL_API __attribute__((visibility("default")))
#else
#define DMLCL_API
#endif

/* ---- HRESULT values (Windows numbers) ------------------------------------- */

#ifndef SUCCEEDED
#define SUCCEEDED(hr) (((HRESULT)(hr)) >= 0)
#endif
#ifndef FAILED
#define FAILED(hr) (((HRESULT)(hr)) < 0)
#endif

/*
 * X-macro table: name, value, meaning. Generates the constants and
 * dmlcl_hresult_name(). DMLCL_E_INDEX_OUT_OF_RANGE is dmlcl's own (customer
 * bit set): a dispatch under the ERROR out-of-range policy met a bad index.
 */
#define DMLCL_HRESULT_MAP(X)                                   \
    X(S_OK, 0x00000000, "success")                             \
    X(S_FALSE, 0x00000001, "success, nothing to do")           \
    X(E_NOTIMPL, 0x80004001, "not implemented")                \
    X(E_NOINTERFACE, 0x80004002, "no such interface")          \
    X(E_POINTER, 0x80004003, "null pointer")                   \
    X(E_FAIL, 0x80004005, "unspecified failure")               \
    X(E_OUTOFMEMORY, 0x8007000E, "out of memory")              \
    X(E_INVALIDARG, 0x80070057, "invalid argument")            \
    X(DXGI_ERROR_UNSUPPORTED, 0x887A0004, "unsupported")       \
    X(DXGI_ERROR_DEVICE_REMOVED, 0x887A0005, "device failure") \
    X(DMLCL_E_INDEX_OUT_OF_RANGE, 0xA0DC0001, "index out of range")

#define DMLCL_DEFINE_HRESULT_(name, value, text) \
    enum { DMLCL_HR_##name = (int32_t)(uint32_t)(value) };
DMLCL_HRESULT_MAP(DMLCL_DEFINE_HRESULT_)
#undef DMLCL_DEFINE_HRESULT_

/*
 * Spelled token for token as in DirectX-Headers' wsl/winadapter.h, so that
 * including it (through <DirectML.h>) before or after this header redefines
 * nothing. DMLCL_HR_* above carries the same numbers as enum constants.
 */
#ifndef S_OK
#define S_OK ((HRESULT)0L)
#endif
#ifndef S_FALSE
#define S_FALSE ((HRESULT)1L)
#endif
#ifndef E_NOTIMPL
#define E_NOTIMPL ((HRESULT)0x80004001L)
#endif
#ifndef E_NOINTERFACE
#define E_NOINTERFACE ((HRESULT)0x80004002L)
#endif
#ifndef E_POINTER
#define E_POINTER ((HRESULT)0x80004003L)
#endif
#ifndef E_FAIL
#define E_FAIL ((HRESULT)0x80004005L)
#endif
#ifndef E_OUTOFMEMORY
#define E_OUTOFMEMORY ((HRESULT)0x8007000EL)
#endif
#ifndef E_INVALIDARG
#define E_INVALIDARG ((HRESULT)0x80070057L)
#endif
#ifndef DXGI_ERROR_UNSUPPORTED
#define DXGI_ERROR_UNSUPPORTED ((HRESULT)0x887A0004L)
#endif
#ifndef DXGI_ERROR_DEVICE_REMOVED
#define DXGI_ERROR_DEVICE_REMOVED ((HRESULT)0x887A0005L)
#endif
#define DMLCL_E_INDEX_OUT_OF_RANGE ((HRESULT)DMLCL_HR_DMLCL_E_INDEX_OUT_OF_RANGE)

/* "E_INVALIDARG" etc.; "HRESULT(0x...)" style text for unknown values. */
DMLCL_API const char *dmlcl_hresult_name(HRESULT hr);

/* ---- Errors and version --------------------------------------------------- */

/* The message of this thread's most recent failure ("" if none yet). */
DMLCL_API const char *dmlcl_last_error(void);

/* Called on every failure, from the failing thread. NULL to disable. */
typedef void (*dmlcl_log_callback)(void *user, HRESULT hr, const char *message);
DMLCL_API void dmlcl_set_log_callback(dmlcl_log_callback callback, void *user);

DMLCL_API uint32_t dmlcl_version(void);           /* DMLCL_VERSION_HEX */
DMLCL_API const char *dmlcl_version_string(void); /* "0.1.0" */

/* ---- Device (IDMLDevice) --------------------------------------------------- */

typedef struct dmlcl_device dmlcl_device;

/*
 * Chooses a device from the environment: DMLCL_PLATFORM and DMLCL_DEVICE,
 * each a zero-based index or a case-insensitive substring of the name;
 * DMLCL_DEVICE may also be "gpu", "cpu" or "accelerator", or, with
 * DMLCL_PLATFORM unset, a whole "PLATFORM:DEVICE" spec (dmlcl-info lists each
 * device's). Default: the first GPU of any platform, else the first CPU, else
 * the first device.
 */
DMLCL_API HRESULT dmlcl_device_create(dmlcl_device **device);

/* Same, from a spec "[PLATFORM:]DEVICE" with the rules above (NULL = env). */
DMLCL_API HRESULT dmlcl_device_create_from_spec(const char *spec, dmlcl_device **device);

/*
 * Wraps an application's own OpenCL objects (retained, not copied). queue may
 * be NULL: dmlcl then creates an in-order queue on (context, device_id).
 */
DMLCL_API HRESULT dmlcl_device_create_from_cl(cl_context context, cl_device_id device_id,
                                              cl_command_queue queue, dmlcl_device **device);

/*
 * The device class whose kernel variants and launch geometry dmlcl uses
 * (lanes and work-groups for GPUs; serial work-items, streaming stores and
 * layout-change tiles for CPUs and accelerators). DEFAULT: the environment
 * variable DMLCL_DEVICE_CLASS (cpu, gpu or accelerator) when set, else the
 * device's CL_DEVICE_TYPE. Forcing a class runs that class's kernels on any
 * device (e.g. the GPU variants on PoCL, to test them without a GPU).
 */
typedef enum dmlcl_device_class {
    DMLCL_DEVICE_CLASS_DEFAULT = 0,
    DMLCL_DEVICE_CLASS_CPU = 1,
    DMLCL_DEVICE_CLASS_GPU = 2,
    DMLCL_DEVICE_CLASS_ACCELERATOR = 3,
} dmlcl_device_class;

typedef struct dmlcl_device_options {
    /* "[PLATFORM:]DEVICE" as for dmlcl_device_create_from_spec; NULL: the
     * environment. Ignored when context is set. */
    const char *spec;
    /* An application's OpenCL objects to wrap, as for
     * dmlcl_device_create_from_cl (queue may be NULL); NULL context: chosen by spec. */
    cl_context context;
    cl_device_id device_id;
    cl_command_queue queue;
    dmlcl_device_class device_class;
} dmlcl_device_options;

/* Creates a device from options (NULL options: as dmlcl_device_create). A
 * DMLCL_DEVICE_CLASS other than cpu, gpu or accelerator is an error here,
 * whichever function creates the device. */
DMLCL_API HRESULT dmlcl_device_create_with_options(const dmlcl_device_options *options,
                                                   dmlcl_device **device);

/* The class the device's kernels are chosen for (never DEFAULT). */
DMLCL_API dmlcl_device_class dmlcl_device_get_class(const dmlcl_device *device);

DMLCL_API void dmlcl_device_retain(dmlcl_device *device);
DMLCL_API void dmlcl_device_release(dmlcl_device *device);

DMLCL_API cl_context dmlcl_device_context(const dmlcl_device *device);
DMLCL_API cl_device_id dmlcl_device_id(const dmlcl_device *device);
DMLCL_API cl_command_queue dmlcl_device_queue(const dmlcl_device *device);
/* "platform name / device name" */
DMLCL_API const char *dmlcl_device_description(const dmlcl_device *device);

/*
 * IDMLDevice::CheckFeatureSupport: DML_FEATURE_TENSOR_DATA_TYPE_SUPPORT
 * (every type dmlcl moves, 64-bit types included: data movement needs no
 * device arithmetic) and DML_FEATURE_FEATURE_LEVELS (dmlcl emulates
 * DMLCL_FEATURE_LEVEL for the operators it implements).
 *
 * That is 6.4, DirectML 1.15's: every level's additions to these operators
 * are here (every type at 1 to 8 dimensions and PADDING1 from 5.0, FLOAT16
 * quantization scales from 6.0, DML_GRAPH_NODE_TYPE_CONSTANT and optional
 * quantization zero points from 6.2, DML_PADDING_MODE_WRAP from 6.4;
 * 6.3's UINT4 and INT4 belong to QUANTIZE and DEQUANTIZE only), so programs
 * that ask DMLCreateDevice1 for 5.0 (as ONNX Runtime's DirectML provider
 * does) or any later level get a device. A number, not the enumerator: the
 * enumerator is declared only from DML_TARGET_VERSION 0x6400 on.
 */
#define DMLCL_FEATURE_LEVEL ((DML_FEATURE_LEVEL)0x6400)
DMLCL_API HRESULT dmlcl_device_check_feature_support(dmlcl_device *device, DML_FEATURE feature,
                                                     UINT featureQueryDataSize,
                                                     const void *featureQueryData,
                                                     UINT featureSupportDataSize,
                                                     void *featureSupportData);

/* ---- Operator (IDMLOperator) ---------------------------------------------- */

typedef struct dmlcl_operator dmlcl_operator;

/*
 * IDMLDevice::CreateOperator: validates the description and deep-copies it
 * (it need not outlive the call). device may be NULL: the operator is then
 * validated and planned on the host only and cannot be compiled (for tools
 * and tests that need no OpenCL device).
 */
DMLCL_API HRESULT dmlcl_operator_create(dmlcl_device *device, const DML_OPERATOR_DESC *desc,
                                        dmlcl_operator **op);
DMLCL_API void dmlcl_operator_release(dmlcl_operator *op);

/* Binding slots, in DirectML's order (optional tensors included). */
DMLCL_API UINT dmlcl_operator_input_count(const dmlcl_operator *op);
DMLCL_API UINT dmlcl_operator_output_count(const dmlcl_operator *op);

/* ---- Compiled operator (IDMLCompiledOperator) ----------------------------- */

typedef struct dmlcl_compiled_operator dmlcl_compiled_operator;

/*
 * IDMLDevice::CompileOperator: chooses the kernel variant and builds its
 * program, or takes it from the device's cache (one build per variant, not
 * per shape). Its temporary size is 0; its persistent size
 * (PersistentResourceSize) is 0 unless inputs have
 * DML_TENSOR_FLAG_OWNED_BY_DML (see dmlcl_compiled_operator_initialize).
 */
DMLCL_API HRESULT dmlcl_operator_compile(dmlcl_operator *op, DML_EXECUTION_FLAGS flags,
                                         dmlcl_compiled_operator **compiled);
DMLCL_API void dmlcl_compiled_operator_release(dmlcl_compiled_operator *compiled);
DMLCL_API DML_BINDING_PROPERTIES
dmlcl_compiled_operator_binding_properties(const dmlcl_compiled_operator *compiled);
/* The operator it was compiled from (borrowed). */
DMLCL_API dmlcl_operator *dmlcl_compiled_operator_operator(const dmlcl_compiled_operator *compiled);

/*
 * IDMLOperatorInitializer for one compiled operator (or graph): inputs with
 * DML_TENSOR_FLAG_OWNED_BY_DML are given here, once, and copied into the
 * persistent resource, as DirectML copies them (their bytes may change or go
 * away afterwards). inputs: the input count (a graph's input count), owned
 * inputs DML_BINDING_TYPE_BUFFER (checked as BindInputs checks them), the
 * others DML_BINDING_TYPE_NONE; count 0 when no input is owned. persistent:
 * a DML_BINDING_TYPE_BUFFER of at least PersistentResourceSize bytes at a
 * multiple of DML_PERSISTENT_BUFFER_ALIGNMENT (256), or NONE (NULL) when that
 * size is 0. Enqueued on queue (NULL = the device's) after the wait list;
 * *event (optional) completes when the copies are done. Execution then binds
 * the owned inputs as DML_BINDING_TYPE_NONE and the same persistent range
 * with dmlcl_binding_table_bind_persistent.
 */
DMLCL_API HRESULT dmlcl_compiled_operator_initialize(
    dmlcl_compiled_operator *compiled, cl_command_queue queue, UINT input_count,
    const DML_BINDING_DESC *inputs, const DML_BINDING_DESC *persistent,
    cl_uint num_events_in_wait_list, const cl_event *event_wait_list, cl_event *event);

/* ---- Graphs (IDMLDevice1::CompileGraph) ------------------------------------- */

/*
 * The most nodes a DML_GRAPH_DESC may have: a larger NodeCount is refused
 * (E_INVALIDARG, naming this limit) before anything is read or allocated.
 * Validating and planning a graph takes time and memory linear in its nodes
 * and edges (docs/design.md, "Graph compile cost"), so the limit bounds what
 * a graph from an untrusted source can cost: about 0.1 s and 60 MB of host
 * memory for an identity chain this long. DirectML states no limit.
 */
#define DMLCL_GRAPH_NODE_COUNT_MAX 262144u

/*
 * A graph input may feed no node (DirectMLX's Graph::Compile asks for such
 * inputs on purpose); its binding is accepted, NONE or a buffer, and never
 * read. Each graph input costs host memory whether used or not, so
 * InputCount is at most the nodes' present inputs or this, whichever is
 * larger. DirectML states no limit.
 */
#define DMLCL_GRAPH_INPUT_COUNT_MAX 65536u

/*
 * A graph output may be fed by no node (DirectMLX's Graph::Compile leaves an
 * empty Expression's output without an edge): its binding is accepted, NONE
 * or a buffer, and nothing is written there. OutputCount is at most the
 * operator nodes' outputs or this, whichever is larger.
 */
#define DMLCL_GRAPH_OUTPUT_COUNT_MAX 65536u

/*
 * IDMLDevice1::CompileGraph: validates desc against DirectML's graph rules
 * and compiles it into one compiled operator whose binding table binds the
 * graph's inputs and outputs (in graph index order) and, when
 * TemporaryResourceSize (binding properties) is not 0, a temporary resource.
 * Chains of data-movement nodes are fused into fewer kernels; DMLCL_VERBOSE=1
 * prints the decisions. In the C API, DML_OPERATOR_GRAPH_NODE_DESC.Operator
 * is a dmlcl_operator* (cast to IDMLOperator*), as DML_BUFFER_BINDING.Buffer
 * is a cl_mem; the operators may be released after the call.
 */
DMLCL_API HRESULT dmlcl_graph_compile(dmlcl_device *device, const DML_GRAPH_DESC *desc,
                                      DML_EXECUTION_FLAGS flags,
                                      dmlcl_compiled_operator **compiled);

/* ---- Binding table (IDMLBindingTable) -------------------------------------- */

typedef struct dmlcl_binding_table dmlcl_binding_table;

DMLCL_API HRESULT dmlcl_binding_table_create(dmlcl_compiled_operator *compiled,
                                             dmlcl_binding_table **table);
DMLCL_API void dmlcl_binding_table_release(dmlcl_binding_table *table);

/*
 * BindInputs / BindOutputs: count must equal the operator's slot count (a
 * compiled graph's input or output count, in graph index order); each
 * binding is DML_BINDING_TYPE_BUFFER with a DML_BUFFER_BINDING whose Buffer is
 * a cl_mem, or DML_BINDING_TYPE_NONE for an absent optional tensor. Checked
 * here: offset alignment (16, or GuaranteedBaseOffsetAlignment if larger),
 * SizeInBytes >= TotalTensorSizeInBytes, the range inside the cl_mem, and
 * DirectML's hazard rules (an input may share bytes with an output only for
 * in-place operators and only with the identical range).
 */
DMLCL_API HRESULT dmlcl_binding_table_bind_inputs(dmlcl_binding_table *table, UINT count,
                                                  const DML_BINDING_DESC *bindings);
DMLCL_API HRESULT dmlcl_binding_table_bind_outputs(dmlcl_binding_table *table, UINT count,
                                                   const DML_BINDING_DESC *bindings);

/*
 * BindTemporaryResource: a DML_BINDING_TYPE_BUFFER of at least
 * TemporaryResourceSize bytes at a multiple of DML_TEMPORARY_BUFFER_ALIGNMENT
 * (256) when that size is not 0, else DML_BINDING_TYPE_NONE (or NULL): a
 * buffer for a resource that is not needed is refused, as DirectML refuses it
 * (the same for the persistent resource). The bytes are the graph's scratch:
 * it overlaps no input or output.
 */
DMLCL_API HRESULT dmlcl_binding_table_bind_temporary(dmlcl_binding_table *table,
                                                     const DML_BINDING_DESC *binding);

/*
 * BindPersistentResource: the persistent resource that
 * dmlcl_compiled_operator_initialize filled (same buffer and offset), when
 * PersistentResourceSize is not 0, else DML_BINDING_TYPE_NONE (or NULL; a
 * buffer is refused).
 * Inputs with DML_TENSOR_FLAG_OWNED_BY_DML are read from it; BindInputs binds
 * them as DML_BINDING_TYPE_NONE. Either call may come first.
 */
DMLCL_API HRESULT dmlcl_binding_table_bind_persistent(dmlcl_binding_table *table,
                                                      const DML_BINDING_DESC *binding);

/*
 * IDMLCommandRecorder::RecordDispatch + ExecuteCommandLists: enqueues the
 * operator on queue (NULL = the device's queue), after the wait list; *event
 * (optional) completes when the output is written. Asynchronous. An empty
 * output enqueues nothing (a marker, if an event is asked for).
 */
DMLCL_API HRESULT dmlcl_binding_table_dispatch(dmlcl_binding_table *table, cl_command_queue queue,
                                               cl_uint num_events_in_wait_list,
                                               const cl_event *event_wait_list, cl_event *event);

/*
 * The outcome of the last dispatch of this table, waiting for it if needed:
 * S_OK, or DMLCL_E_INDEX_OUT_OF_RANGE (ERROR policy) with a message naming the
 * first offending index: its position in the indices tensor and its value.
 */
DMLCL_API HRESULT dmlcl_binding_table_status(dmlcl_binding_table *table);

/* ---- Synchronous convenience on host memory -------------------------------- */

typedef struct dmlcl_host_tensor {
    void *data;    /* NULL for an absent optional input */
    uint64_t size; /* bytes at data; >= the tensor's TotalTensorSizeInBytes */
} dmlcl_host_tensor;

/*
 * Copies inputs and outputs to device buffers, dispatches, waits, checks the
 * status and copies the outputs back (bytes of an output the operator does not
 * write, such as stride padding, come back as they were). For a compiled
 * graph: inputs and outputs in graph index order, and a temporary resource
 * allocated for the call when the graph needs one.
 */
DMLCL_API HRESULT dmlcl_compiled_operator_execute(dmlcl_compiled_operator *compiled,
                                                  UINT input_count, const dmlcl_host_tensor *inputs,
                                                  UINT output_count,
                                                  const dmlcl_host_tensor *outputs);

#ifdef __cplusplus
}
#endif

#endif /* DMLCL_DMLCL_H */
