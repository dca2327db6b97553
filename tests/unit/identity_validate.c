/* SPDX-License-Identifier: MIT */
/*
 * ELEMENT_WISE_IDENTITY and DMLCL_BROADCAST validation on the host (no
 * OpenCL device). IDENTITY: DirectML's page (same DataType, DimensionCount
 * and Sizes; strides free; ScaleBias) and facts 4.1, 4.3 and 4.10; BROADCAST:
 * dmlcl/ext_broadcast.h. Each broken rule checks the HRESULT and that the
 * message names the operator, the field and the value.
 */
#include <criterion/criterion.h>
#include <string.h>

#include "dmlcl/dmlcl.h"
#include "support.h"

/* ---- IDENTITY ------------------------------------------------------------------------ */

typedef struct identity {
    unit_tensor in, out;
    DML_SCALE_BIAS sb;
    DML_ELEMENT_WISE_IDENTITY_OPERATOR_DESC d;
    DML_OPERATOR_DESC op;
} identity;

static void identity_init(identity *c, DML_TENSOR_DATA_TYPE type, UINT rank, const UINT *sizes,
                          const UINT *in_strides, const UINT *out_strides)
{
    memset(c, 0, sizeof *c);
    unit_tensor_set(&c->in, type, rank, sizes, in_strides);
    unit_tensor_set(&c->out, type, rank, sizes, out_strides);
    c->d.InputTensor = &c->in.desc;
    c->d.OutputTensor = &c->out.desc;
    c->op.Type = DML_OPERATOR_ELEMENT_WISE_IDENTITY;
    c->op.Desc = &c->d;
}

static HRESULT create(const DML_OPERATOR_DESC *desc)
{
    dmlcl_operator *op = NULL;
    HRESULT hr = dmlcl_operator_create(NULL, desc, &op);
    if (SUCCEEDED(hr)) {
        cr_expect_eq(dmlcl_operator_input_count(op), 1);
        cr_expect_eq(dmlcl_operator_output_count(op), 1);
    }
    dmlcl_operator_release(op);
    return hr;
}

static void expect_ok(const DML_OPERATOR_DESC *desc, int line)
{
    HRESULT hr = create(desc);
    cr_expect(SUCCEEDED(hr), "line %d: %s: %s", line, dmlcl_hresult_name(hr), dmlcl_last_error());
}

/* The HRESULT, and every needle in the message. */
static void expect_fail(const DML_OPERATOR_DESC *desc, HRESULT want, const char *const *needles,
                        int line)
{
    unit_expect_needles(create(desc), want, needles, line);
}

#define OK(desc) expect_ok((desc), __LINE__)
#define FAILS(desc, hr, ...)                                \
    do {                                                    \
        const char *const needles_[] = {__VA_ARGS__, NULL}; \
        expect_fail((desc), (hr), needles_, __LINE__);      \
    } while (0)

Test(identity_validate, layouts_are_free)
{
    identity c;
    const UINT nchw[4] = {1, 3, 5, 4}, nhwc[4] = {60, 1, 12, 3}, padded[4] = {200, 50, 10, 1};
    identity_init(&c, DML_TENSOR_DATA_TYPE_FLOAT32, 4, nchw, NULL, NULL);
    OK(&c.op);
    identity_init(&c, DML_TENSOR_DATA_TYPE_FLOAT32, 4, nchw, NULL, nhwc);
    OK(&c.op);
    identity_init(&c, DML_TENSOR_DATA_TYPE_UINT8, 4, nchw, padded, nhwc);
    OK(&c.op);
    /* The Expand-style broadcast of facts 4.10: Sizes {2,4,3}, Strides {0,1,0}. */
    const UINT sizes[3] = {2, 4, 3}, bcast[3] = {0, 1, 0};
    identity_init(&c, DML_TENSOR_DATA_TYPE_FLOAT32, 3, sizes, bcast, NULL);
    OK(&c.op);
    cr_expect_eq(c.in.buf.TotalTensorSizeInBytes, 16);
}

Test(identity_validate, every_directml_type_and_rank)
{
    static const DML_TENSOR_DATA_TYPE types[] = {
        DML_TENSOR_DATA_TYPE_FLOAT32, DML_TENSOR_DATA_TYPE_FLOAT16, DML_TENSOR_DATA_TYPE_UINT32,
        DML_TENSOR_DATA_TYPE_UINT16,  DML_TENSOR_DATA_TYPE_UINT8,   DML_TENSOR_DATA_TYPE_INT32,
        DML_TENSOR_DATA_TYPE_INT16,   DML_TENSOR_DATA_TYPE_INT8,    DML_TENSOR_DATA_TYPE_FLOAT64,
        DML_TENSOR_DATA_TYPE_UINT64,  DML_TENSOR_DATA_TYPE_INT64,
    };
    const UINT sizes[8] = {2, 1, 3, 1, 2, 1, 1, 2};
    identity c;
    for (size_t t = 0; t < sizeof types / sizeof types[0]; ++t)
        for (UINT rank = 1; rank <= 8; ++rank) {
            identity_init(&c, types[t], rank, sizes, NULL, NULL);
            OK(&c.op);
        }
}

Test(identity_validate, shapes_must_match)
{
    identity c;
    const UINT s[3] = {2, 3, 4}, other[3] = {2, 4, 3};
    identity_init(&c, DML_TENSOR_DATA_TYPE_FLOAT32, 3, s, NULL, NULL);
    c.out.buf.DataType = DML_TENSOR_DATA_TYPE_INT32;
    FAILS(&c.op, E_INVALIDARG, "ELEMENT_WISE_IDENTITY", "OutputTensor.DataType (INT32)",
          "InputTensor.DataType (FLOAT32)");
    identity_init(&c, DML_TENSOR_DATA_TYPE_FLOAT32, 3, s, NULL, NULL);
    unit_tensor_set(&c.out, DML_TENSOR_DATA_TYPE_FLOAT32, 2, s, NULL);
    FAILS(&c.op, E_INVALIDARG, "OutputTensor.DimensionCount (2)", "InputTensor.DimensionCount (3)");
    identity_init(&c, DML_TENSOR_DATA_TYPE_FLOAT32, 3, s, NULL, NULL);
    unit_tensor_set(&c.out, DML_TENSOR_DATA_TYPE_FLOAT32, 3, other, NULL);
    FAILS(&c.op, E_INVALIDARG, "OutputTensor.Sizes ({2,4,3})", "{2,3,4}");
}

Test(identity_validate, directml_tensor_rules)
{
    identity c;
    const UINT s[9] = {1, 1, 1, 1, 1, 1, 1, 1, 2}, zero[2] = {2, 0};
    identity_init(&c, DML_TENSOR_DATA_TYPE_FLOAT32, 9, s, NULL, NULL);
    FAILS(&c.op, E_INVALIDARG, "InputTensor.DimensionCount (9)", "[1, 8]");
    identity_init(&c, DML_TENSOR_DATA_TYPE_FLOAT32, 2, zero, NULL, NULL);
    FAILS(&c.op, E_INVALIDARG, "InputTensor.Sizes[1] (0)");
    identity_init(&c, DMLCL_TENSOR_DATA_TYPE_BOOLEAN, 2, s, NULL, NULL);
    FAILS(&c.op, DXGI_ERROR_UNSUPPORTED, "InputTensor.DataType (BOOLEAN)", "extension type");
    identity_init(&c, DML_TENSOR_DATA_TYPE_UINT4, 2, s + 7, NULL, NULL);
    FAILS(&c.op, DXGI_ERROR_UNSUPPORTED, "InputTensor.DataType (UINT4)");
    identity_init(&c, DML_TENSOR_DATA_TYPE_FLOAT32, 2, s + 7, NULL, NULL);
    c.in.buf.TotalTensorSizeInBytes = 4;
    FAILS(&c.op, E_INVALIDARG, "InputTensor.TotalTensorSizeInBytes (4)", "at least 8");
    identity_init(&c, DML_TENSOR_DATA_TYPE_FLOAT32, 2, s + 7, NULL, NULL);
    c.d.OutputTensor = NULL;
    FAILS(&c.op, E_INVALIDARG, "OutputTensor (NULL)");
}

Test(identity_validate, scale_bias_on_floats_only)
{
    identity c;
    const UINT s[1] = {3};
    static const DML_TENSOR_DATA_TYPE floats[] = {DML_TENSOR_DATA_TYPE_FLOAT32,
                                                  DML_TENSOR_DATA_TYPE_FLOAT16};
    /* And FLOAT64: DirectML has no 64-bit ScaleBias. */
    static const DML_TENSOR_DATA_TYPE ints[] = {
        DML_TENSOR_DATA_TYPE_INT32, DML_TENSOR_DATA_TYPE_UINT8, DML_TENSOR_DATA_TYPE_FLOAT64};
    for (int i = 0; i < 2; ++i) {
        identity_init(&c, floats[i], 1, s, NULL, NULL);
        c.sb = (DML_SCALE_BIAS){2.0f, 10.0f};
        c.d.ScaleBias = &c.sb;
        OK(&c.op);
    }
    for (int i = 0; i < 3; ++i) {
        identity_init(&c, ints[i], 1, s, NULL, NULL);
        c.sb = (DML_SCALE_BIAS){2.0f, 10.0f};
        c.d.ScaleBias = &c.sb;
        FAILS(&c.op, DXGI_ERROR_UNSUPPORTED, "ELEMENT_WISE_IDENTITY: ScaleBias",
              "floating-point tensors only");
        c.d.ScaleBias = NULL;
        OK(&c.op);
    }
}

Test(identity_validate, output_strides_must_not_broadcast)
{
    identity c;
    const UINT s[2] = {2, 3}, bcast[2] = {0, 1}, ok[2] = {3, 1}, one[2] = {1, 0};
    identity_init(&c, DML_TENSOR_DATA_TYPE_FLOAT32, 2, s, ok, bcast);
    FAILS(&c.op, DXGI_ERROR_UNSUPPORTED, "OutputTensor.Strides[0] (0)", "size 2");
    /* A 0 stride on a dimension of size 1 names no second element. */
    const UINT s1[2] = {2, 1};
    identity_init(&c, DML_TENSOR_DATA_TYPE_FLOAT32, 2, s1, NULL, one);
    OK(&c.op);
}

/* ---- DMLCL_BROADCAST ------------------------------------------------------------------ */

typedef struct broadcast {
    unit_tensor in, out;
    UINT axes[UNIT_MAX_DIMS];
    DMLCL_BROADCAST_OPERATOR_DESC d;
    DML_OPERATOR_DESC op;
} broadcast;

static void broadcast_init(broadcast *c, DML_TENSOR_DATA_TYPE type, DMLCL_BROADCAST_MODE mode,
                           UINT in_rank, const UINT *in, UINT out_rank, const UINT *out)
{
    memset(c, 0, sizeof *c);
    unit_tensor_set(&c->in, type, in_rank, in, NULL);
    unit_tensor_set(&c->out, type, out_rank, out, NULL);
    c->d.InputTensor = &c->in.desc;
    c->d.OutputTensor = &c->out.desc;
    c->d.Mode = mode;
    c->op.Type = DMLCL_OPERATOR_BROADCAST;
    c->op.Desc = &c->d;
}

static void set_axes(broadcast *c, UINT count, const UINT *axes)
{
    memcpy(c->axes, axes, count * sizeof *axes);
    c->d.AxesMappingCount = count;
    c->d.AxesMapping = c->axes;
}

Test(broadcast_validate, modes)
{
    broadcast c;
    const UINT in3[3] = {16, 1, 1}, out4[4] = {1, 16, 50, 50}, in1[1] = {16}, in2[2] = {50, 50},
               out4b[4] = {1, 50, 50, 16}, ax1[1] = {1}, ax2[2] = {1, 2};
    broadcast_init(&c, DML_TENSOR_DATA_TYPE_FLOAT32, DMLCL_BROADCAST_MODE_NUMPY, 3, in3, 4, out4);
    OK(&c.op);
    c.d.Mode = DMLCL_BROADCAST_MODE_BIDIRECTIONAL;
    OK(&c.op);
    broadcast_init(&c, DML_TENSOR_DATA_TYPE_FLOAT32, DMLCL_BROADCAST_MODE_EXPLICIT, 1, in1, 4,
                   out4);
    set_axes(&c, 1, ax1);
    OK(&c.op);
    broadcast_init(&c, DML_TENSOR_DATA_TYPE_FLOAT32, DMLCL_BROADCAST_MODE_EXPLICIT, 2, in2, 4,
                   out4b);
    set_axes(&c, 2, ax2);
    OK(&c.op);
}

Test(broadcast_validate, extension_tensors)
{
    broadcast c;
    UINT in[16], out[16];
    for (int i = 0; i < 16; ++i) {
        in[i] = 1;
        out[i] = i == 15 ? 3 : 1;
    }
    in[15] = 3;
    broadcast_init(&c, DMLCL_TENSOR_DATA_TYPE_COMPLEX128, DMLCL_BROADCAST_MODE_NUMPY, 16, in, 16,
                   out);
    OK(&c.op);
    const UINT one[1] = {1}, empty[2] = {0, 4};
    broadcast_init(&c, DMLCL_TENSOR_DATA_TYPE_BOOLEAN, DMLCL_BROADCAST_MODE_NUMPY, 1, one, 2,
                   empty);
    OK(&c.op);
    broadcast_init(&c, DMLCL_TENSOR_DATA_TYPE_STRING, DMLCL_BROADCAST_MODE_NUMPY, 1, one, 2, empty);
    FAILS(&c.op, DXGI_ERROR_UNSUPPORTED, "BROADCAST", "STRING");
}

Test(broadcast_validate, broken_rules)
{
    broadcast c;
    const UINT in2[2] = {3, 4}, out2[2] = {3, 5}, out3[3] = {2, 3, 4}, out1[1] = {4},
               ax_oob[2] = {1, 3}, ax_uns[2] = {1, 0}, ax_dup[2] = {1, 1}, ax_ok[2] = {1, 2};
    broadcast_init(&c, DML_TENSOR_DATA_TYPE_FLOAT32, DMLCL_BROADCAST_MODE_NUMPY, 2, in2, 2, out2);
    FAILS(&c.op, E_INVALIDARG, "BROADCAST: InputTensor.Sizes[1] (4)", "OutputTensor.Sizes[1] (5)");
    broadcast_init(&c, DML_TENSOR_DATA_TYPE_FLOAT32, DMLCL_BROADCAST_MODE_NUMPY, 2, in2, 1, out1);
    FAILS(&c.op, E_INVALIDARG, "InputTensor.DimensionCount (2)", "OutputTensor.DimensionCount (1)");
    broadcast_init(&c, DML_TENSOR_DATA_TYPE_FLOAT32, DMLCL_BROADCAST_MODE_NUMPY, 2, in2, 3, out3);
    set_axes(&c, 2, ax_ok);
    FAILS(&c.op, E_INVALIDARG, "AxesMapping (2 entries)", "EXPLICIT only");
    broadcast_init(&c, DML_TENSOR_DATA_TYPE_FLOAT32, DMLCL_BROADCAST_MODE_EXPLICIT, 2, in2, 3,
                   out3);
    FAILS(&c.op, E_INVALIDARG, "AxesMappingCount (0)", "InputTensor.DimensionCount (2)");
    c.d.AxesMappingCount = 2;
    FAILS(&c.op, E_INVALIDARG, "AxesMapping (NULL)");
    set_axes(&c, 2, ax_oob);
    FAILS(&c.op, E_INVALIDARG, "AxesMapping[1] (3)", "OutputTensor.DimensionCount (3)");
    set_axes(&c, 2, ax_uns);
    FAILS(&c.op, E_INVALIDARG, "AxesMapping[1] (0)", "strictly increasing");
    set_axes(&c, 2, ax_dup);
    FAILS(&c.op, E_INVALIDARG, "AxesMapping[1] (1)", "strictly increasing");
    set_axes(&c, 2, ax_ok);
    OK(&c.op);
    c.d.Mode = (DMLCL_BROADCAST_MODE)7;
    FAILS(&c.op, E_INVALIDARG, "Mode (7)");
    broadcast_init(&c, DML_TENSOR_DATA_TYPE_FLOAT32, DMLCL_BROADCAST_MODE_NUMPY, 2, in2, 3, out3);
    c.out.buf.DataType = DML_TENSOR_DATA_TYPE_INT32;
    FAILS(&c.op, E_INVALIDARG, "OutputTensor.DataType (INT32)");
    const UINT zero_in[2] = {0, 4}, one_out[2] = {1, 4};
    broadcast_init(&c, DML_TENSOR_DATA_TYPE_FLOAT32, DMLCL_BROADCAST_MODE_NUMPY, 2, zero_in, 2,
                   one_out);
    FAILS(&c.op, E_INVALIDARG, "InputTensor.Sizes[0] (0)");
    const UINT bstr[3] = {0, 4, 1};
    broadcast_init(&c, DML_TENSOR_DATA_TYPE_FLOAT32, DMLCL_BROADCAST_MODE_NUMPY, 2, in2, 3, out3);
    unit_tensor_set(&c.out, DML_TENSOR_DATA_TYPE_FLOAT32, 3, out3, bstr);
    FAILS(&c.op, DXGI_ERROR_UNSUPPORTED, "OutputTensor.Strides[0] (0)");
}
