/* SPDX-License-Identifier: MIT */
/*
 * The OpenVINO and ONNX front-ends: a model's operators as the framework
 * states them (shapes, negative axes, attribute values), checked against
 * the specification and turned into dmlcl operators.
 *  - OpenVINO Gather-8 with batch_dims 1: per batch row, its own indices;
 *    an index out of range gives 0 (OpenVINO's rule).
 *  - ONNX Slice-13 with a negative step: the last column first, every other.
 *  - A broken rule: the message names the operator, the attribute, its value
 *    and the rule.
 * Expected values: worked by hand from each specification.
 */
#include <dmlcl/dmlcl.h>
#include <dmlcl/frontends.h>
#include <stdio.h>
#include <string.h>

static HRESULT run(dmlcl_device *device, const dmlcl_frontend_result *r, UINT n_inputs,
                   const dmlcl_host_tensor *inputs, void *out, size_t out_size)
{
    dmlcl_operator *op = NULL;
    dmlcl_compiled_operator *compiled = NULL;
    HRESULT hr = dmlcl_operator_create(device, &r->desc, &op);
    if (SUCCEEDED(hr))
        hr = dmlcl_operator_compile(op, DML_EXECUTION_FLAG_NONE, &compiled);
    if (SUCCEEDED(hr)) {
        dmlcl_host_tensor o = {out, out_size};
        hr = dmlcl_compiled_operator_execute(compiled, n_inputs, inputs, 1, &o);
    }
    dmlcl_compiled_operator_release(compiled);
    dmlcl_operator_release(op);
    return hr;
}

static int report(HRESULT hr, const char *what)
{
    if (FAILED(hr))
        fprintf(stderr, "%s: %s: %s\n", what, dmlcl_hresult_name(hr), dmlcl_last_error());
    return FAILED(hr);
}

int main(void)
{
    dmlcl_device *device = NULL;
    if (report(dmlcl_device_create(&device), "dmlcl_device_create"))
        return 1;
    int failed = 0;

    /* OpenVINO Gather-8: data [2, 3], indices [2, 2], axis 1, batch_dims 1. */
    float data[6] = {1, 2, 3, 10, 20, 30};
    int32_t indices[4] = {2, -3, 1, 5}; /* row 1's 5 is out of range: 0 */
    int64_t axis_value = 1;
    float out[4];
    const float want[4] = {3, 1, 20, 0};
    dmlcl_shape ds = {.rank = 2, .dims = {2, 3}}, is = {.rank = 2, .dims = {2, 2}};
    dmlcl_int_array axis = {DML_TENSOR_DATA_TYPE_INT64, 1, &axis_value};
    dmlcl_openvino_gather_args ov = {.data = &ds,
                                     .data_type = DML_TENSOR_DATA_TYPE_FLOAT32,
                                     .indices = &is,
                                     .indices_type = DML_TENSOR_DATA_TYPE_INT32,
                                     .axis = &axis,
                                     .batch_dims = 1};
    dmlcl_frontend_result r;
    dmlcl_host_tensor in2[2] = {{data, sizeof data}, {indices, sizeof indices}};
    if (!report(dmlcl_openvino_gather(8, &ov, &r), "dmlcl_openvino_gather") &&
        !report(run(device, &r, 2, in2, out, sizeof out), "OpenVINO Gather")) {
        printf("OpenVINO Gather-8, batch_dims 1: %g %g %g %g\n", out[0], out[1], out[2], out[3]);
        failed |= memcmp(out, want, sizeof out) != 0;
    } else {
        failed = 1;
    }

    /* ONNX Slice-13: data [2, 4] = 0..7, axis 1 from -1 down, step -2: columns 3, 1. */
    int16_t sdata[8] = {0, 1, 2, 3, 4, 5, 6, 7}, sout[4];
    const int16_t swant[4] = {3, 1, 7, 5};
    int64_t starts_v = -1, ends_v = INT64_MIN, axes_v = 1, steps_v = -2;
    dmlcl_shape sds = {.rank = 2, .dims = {2, 4}};
    dmlcl_int_array starts = {DML_TENSOR_DATA_TYPE_INT64, 1, &starts_v},
                    ends = {DML_TENSOR_DATA_TYPE_INT64, 1, &ends_v},
                    axes = {DML_TENSOR_DATA_TYPE_INT64, 1, &axes_v},
                    steps = {DML_TENSOR_DATA_TYPE_INT64, 1, &steps_v};
    dmlcl_onnx_slice_args sl = {.data = &sds,
                                .data_type = DML_TENSOR_DATA_TYPE_INT16,
                                .starts = &starts,
                                .ends = &ends,
                                .axes = &axes,
                                .steps = &steps};
    dmlcl_host_tensor in1 = {sdata, sizeof sdata};
    if (!report(dmlcl_onnx_slice(13, &sl, &r), "dmlcl_onnx_slice") &&
        !report(run(device, &r, 1, &in1, sout, sizeof sout), "ONNX Slice")) {
        printf("ONNX Slice-13, step -2 on axis 1: %d %d %d %d (shape [%lld, %lld])\n", sout[0],
               sout[1], sout[2], sout[3], (long long)r.output_shape.dims[0],
               (long long)r.output_shape.dims[1]);
        failed |= memcmp(sout, swant, sizeof sout) != 0;
    } else {
        failed = 1;
    }

    /* A broken rule is refused with its reason: axis 2 of a rank-2 tensor. */
    dmlcl_onnx_gather_args bad = {.data = &ds,
                                  .data_type = DML_TENSOR_DATA_TYPE_FLOAT32,
                                  .indices = &is,
                                  .indices_type = DML_TENSOR_DATA_TYPE_INT32,
                                  .axis = 2};
    HRESULT hr = dmlcl_onnx_gather(13, &bad, &r);
    printf("ONNX Gather-13 with axis 2: %s: %s\n", dmlcl_hresult_name(hr), dmlcl_last_error());
    failed |= hr != E_INVALIDARG;

    dmlcl_device_release(device);
    if (failed)
        fprintf(stderr, "frontends: a result differs from the specification\n");
    return failed;
}
