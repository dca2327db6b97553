/* SPDX-License-Identifier: MIT */
/*
 * DirectML's GATHER on host memory: DirectML's own example 1 (axis 1 of a
 * 3x3 tensor, indices {0, 2}, IndexDimensions 1), described with DirectML's
 * structs, run with dmlcl_compiled_operator_execute (dmlcl copies the arrays
 * to the device and back). The output is the one DirectML's documentation
 * gives.
 */
#include <dmlcl/dmlcl.h>
#include <stdio.h>
#include <string.h>

static int check(HRESULT hr, const char *what)
{
    if (FAILED(hr))
        fprintf(stderr, "%s: %s: %s\n", what, dmlcl_hresult_name(hr), dmlcl_last_error());
    return FAILED(hr);
}

int main(void)
{
    float input[9] = {1, 2, 3, 4, 5, 6, 7, 8, 9};
    uint32_t indices[2] = {0, 2};
    float output[6] = {0};
    const float expected[6] = {1, 3, 4, 6, 7, 9};

    /* Every tensor of one dimension count (4 here), padded with leading 1s. */
    UINT input_sizes[4] = {1, 1, 3, 3}, index_sizes[4] = {1, 1, 1, 2},
         output_sizes[4] = {1, 1, 3, 2};
    DML_BUFFER_TENSOR_DESC in = {
        DML_TENSOR_DATA_TYPE_FLOAT32, DML_TENSOR_FLAG_NONE, 4, input_sizes, NULL, sizeof input, 0};
    DML_BUFFER_TENSOR_DESC idx = {
        DML_TENSOR_DATA_TYPE_UINT32, DML_TENSOR_FLAG_NONE, 4, index_sizes, NULL, sizeof indices, 0};
    DML_BUFFER_TENSOR_DESC out = {DML_TENSOR_DATA_TYPE_FLOAT32,
                                  DML_TENSOR_FLAG_NONE,
                                  4,
                                  output_sizes,
                                  NULL,
                                  sizeof output,
                                  0};
    DML_TENSOR_DESC tin = {DML_TENSOR_TYPE_BUFFER, &in}, tidx = {DML_TENSOR_TYPE_BUFFER, &idx},
                    tout = {DML_TENSOR_TYPE_BUFFER, &out};
    DML_GATHER_OPERATOR_DESC gather = {&tin, &tidx, &tout, /*Axis*/ 3, /*IndexDimensions*/ 1};
    DML_OPERATOR_DESC desc = {DML_OPERATOR_GATHER, &gather};

    dmlcl_device *device = NULL;
    dmlcl_operator *op = NULL;
    dmlcl_compiled_operator *compiled = NULL;
    int failed = check(dmlcl_device_create(&device), "dmlcl_device_create") ||
                 check(dmlcl_operator_create(device, &desc, &op), "dmlcl_operator_create") ||
                 check(dmlcl_operator_compile(op, DML_EXECUTION_FLAG_NONE, &compiled),
                       "dmlcl_operator_compile");
    if (!failed) {
        dmlcl_host_tensor inputs[2] = {{input, sizeof input}, {indices, sizeof indices}};
        dmlcl_host_tensor result = {output, sizeof output};
        failed = check(dmlcl_compiled_operator_execute(compiled, 2, inputs, 1, &result),
                       "dmlcl_compiled_operator_execute");
    }
    if (!failed) {
        printf("device: %s\noutput:", dmlcl_device_description(device));
        for (int i = 0; i < 6; ++i)
            printf(" %g", output[i]);
        printf("\n");
        failed = memcmp(output, expected, sizeof output) != 0;
        if (failed)
            fprintf(stderr, "expected 1 3 4 6 7 9\n");
    }
    dmlcl_compiled_operator_release(compiled);
    dmlcl_operator_release(op);
    dmlcl_device_release(device);
    return failed;
}
