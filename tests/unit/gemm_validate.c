/* SPDX-License-Identifier: MIT */
/*
 * GEMM's validation on the host (no OpenCL device): its table (FLOAT32, FLOAT16; 2 to 8
 * dimensions), one DataType and DimensionCount for A, B, C and the output, TransA and TransB
 * NONE or TRANSPOSE, K agreeing, batch sizes agreeing, the output's Sizes {batch..., M, N} and
 * C's the same, a fusable activation; and the lowering (src/ops/gemm.c into src/gemm.h): a
 * transpose is a swap of the innermost strides, batch dimensions of one element dropped, an
 * absent C with Beta 0 (A in its argument slot, never read). Each broken rule checks E_INVALIDARG
 * and that the message names the field, the value and the rule.
 */
#include <criterion/criterion.h>
#include <string.h>

#include "dmlcl/dmlcl.h"
#include "gemm.h"
#include "internal.h"
#include "support.h"

#define F32 DML_TENSOR_DATA_TYPE_FLOAT32
#define F16 DML_TENSOR_DATA_TYPE_FLOAT16
#define NONE DML_MATRIX_TRANSFORM_NONE
#define TRANSPOSE DML_MATRIX_TRANSFORM_TRANSPOSE

#define EXPECT(hr, want, ...)                                  \
    do {                                                       \
        const char *const needles_[] = {__VA_ARGS__, NULL};    \
        unit_expect_needles((hr), (want), needles_, __LINE__); \
    } while (0)

typedef struct gemm {
    unit_tensor a, b, c, out;
    DML_ACTIVATION_LINEAR_OPERATOR_DESC act_desc; /* every fusable activation's layout */
    DML_OPERATOR_DESC act;
    DML_GEMM_OPERATOR_DESC d;
} gemm;

/* A {2, M, K} x {2, K, N} + {2, M, N} product (M 3, K 4, N 5), or its rank-2 form. */
static void gemm_init(gemm *g, DML_TENSOR_DATA_TYPE dt, UINT rank, bool with_c)
{
    static const UINT as[3] = {2, 3, 4}, bs[3] = {2, 4, 5}, os[3] = {2, 3, 5};
    memset(g, 0, sizeof *g);
    UINT skip = 3 - rank;
    g->d.ATensor = unit_tensor_set(&g->a, dt, rank, as + skip, NULL);
    g->d.BTensor = unit_tensor_set(&g->b, dt, rank, bs + skip, NULL);
    g->d.CTensor = with_c ? unit_tensor_set(&g->c, dt, rank, os + skip, NULL) : NULL;
    g->d.OutputTensor = unit_tensor_set(&g->out, dt, rank, os + skip, NULL);
    g->d.TransA = NONE;
    g->d.TransB = NONE;
    g->d.Alpha = 1;
    g->d.Beta = 1;
}

static HRESULT create(const gemm *g)
{
    DML_OPERATOR_DESC d = {DML_OPERATOR_GEMM, &g->d};
    dmlcl_operator *op = NULL;
    HRESULT hr = dmlcl_operator_create(NULL, &d, &op);
    dmlcl_operator_release(op);
    return hr;
}

Test(gemm_validate, accepted)
{
    gemm g;
    gemm_init(&g, F32, 3, true);
    cr_expect_eq(create(&g), S_OK, "%s", dmlcl_last_error());
    gemm_init(&g, F16, 2, false);
    cr_expect_eq(create(&g), S_OK, "%s", dmlcl_last_error());
    /* Both transposed: A {K, M}, B {N, K}. */
    gemm_init(&g, F32, 2, true);
    unit_tensor_set(&g.a, F32, 2, (UINT[]){4, 3}, NULL);
    unit_tensor_set(&g.b, F32, 2, (UINT[]){5, 4}, NULL);
    g.d.TransA = TRANSPOSE;
    g.d.TransB = TRANSPOSE;
    cr_expect_eq(create(&g), S_OK, "%s", dmlcl_last_error());
    /* 8 dimensions, a broadcast batch (stride 0) in B and a broadcast C. */
    gemm_init(&g, F32, 2, true);
    unit_tensor_set(&g.a, F32, 8, (UINT[]){2, 1, 1, 1, 1, 2, 3, 4}, NULL);
    unit_tensor_set(&g.b, F32, 8, (UINT[]){2, 1, 1, 1, 1, 2, 4, 5},
                    (UINT[]){0, 0, 0, 0, 0, 20, 5, 1});
    unit_tensor_set(&g.c, F32, 8, (UINT[]){2, 1, 1, 1, 1, 2, 3, 5},
                    (UINT[]){0, 0, 0, 0, 0, 0, 0, 1});
    unit_tensor_set(&g.out, F32, 8, (UINT[]){2, 1, 1, 1, 1, 2, 3, 5}, NULL);
    cr_expect_eq(create(&g), S_OK, "%s", dmlcl_last_error());
    /* K = 1 and a fused RELU. */
    gemm_init(&g, F16, 2, false);
    unit_tensor_set(&g.a, F16, 2, (UINT[]){3, 1}, NULL);
    unit_tensor_set(&g.b, F16, 2, (UINT[]){1, 5}, NULL);
    g.act = (DML_OPERATOR_DESC){DML_OPERATOR_ACTIVATION_RELU, &g.act_desc};
    g.d.FusedActivation = &g.act;
    cr_expect_eq(create(&g), S_OK, "%s", dmlcl_last_error());
}

Test(gemm_validate, types_and_ranks)
{
    gemm g;
    gemm_init(&g, DML_TENSOR_DATA_TYPE_INT32, 3, true);
    EXPECT(create(&g), E_INVALIDARG, "GEMM", "ATensor.DataType (INT32)", "FLOAT32, FLOAT16");
    gemm_init(&g, DML_TENSOR_DATA_TYPE_UINT8, 2, false);
    EXPECT(create(&g), E_INVALIDARG, "ATensor.DataType (UINT8)", "FLOAT32, FLOAT16");
    gemm_init(&g, F32, 2, false);
    unit_tensor_set(&g.a, F32, 1, (UINT[]){4}, NULL);
    unit_tensor_set(&g.b, F32, 1, (UINT[]){4}, NULL);
    unit_tensor_set(&g.out, F32, 1, (UINT[]){1}, NULL);
    EXPECT(create(&g), E_INVALIDARG, "GEMM", "ATensor.DimensionCount (1)", "2 to 8");
    gemm_init(&g, F32, 3, true);
    unit_tensor_set_type(&g.b, F16);
    EXPECT(create(&g), E_INVALIDARG, "BTensor.DataType (FLOAT16)", "ATensor.DataType (FLOAT32)");
    gemm_init(&g, F32, 3, true);
    unit_tensor_set(&g.b, F32, 2, (UINT[]){4, 5}, NULL);
    EXPECT(create(&g), E_INVALIDARG, "BTensor.DimensionCount (2)", "ATensor.DimensionCount (3)");
    gemm_init(&g, F16, 3, true);
    unit_tensor_set_type(&g.c, F32);
    EXPECT(create(&g), E_INVALIDARG, "CTensor.DataType (FLOAT32)", "ATensor.DataType (FLOAT16)");
    gemm_init(&g, F32, 3, true);
    unit_tensor_set(&g.c, F32, 2, (UINT[]){3, 5}, NULL);
    EXPECT(create(&g), E_INVALIDARG, "CTensor.DimensionCount (2)", "ATensor.DimensionCount (3)");
    gemm_init(&g, F32, 3, false);
    unit_tensor_set_type(&g.out, F16);
    EXPECT(create(&g), E_INVALIDARG, "OutputTensor.DataType (FLOAT16)",
           "ATensor.DataType (FLOAT32)");
    gemm_init(&g, F32, 2, false);
    unit_tensor_set(&g.out, F32, 3, (UINT[]){1, 3, 5}, NULL);
    EXPECT(create(&g), E_INVALIDARG, "OutputTensor.DimensionCount (3)",
           "ATensor.DimensionCount (2)");
    /* Missing required tensors. */
    gemm_init(&g, F32, 2, false);
    g.d.ATensor = NULL;
    EXPECT(create(&g), E_INVALIDARG, "GEMM", "ATensor");
    gemm_init(&g, F32, 2, false);
    g.d.BTensor = NULL;
    EXPECT(create(&g), E_INVALIDARG, "GEMM", "BTensor");
    gemm_init(&g, F32, 2, false);
    g.d.OutputTensor = NULL;
    EXPECT(create(&g), E_INVALIDARG, "GEMM", "OutputTensor");
}

/* Past 8 dimensions (DirectML's DML_TENSOR_DIMENSION_COUNT_MAX1): A {1 x 7, 3, 4}, B, C and
 * the output alike; the tensor's own rule. */
Test(gemm_validate, nine_dimensions)
{
    gemm g;
    gemm_init(&g, F32, 2, true);
    unit_tensor_set(&g.a, F32, 9, (UINT[]){1, 1, 1, 1, 1, 1, 1, 3, 4}, NULL);
    unit_tensor_set(&g.b, F32, 9, (UINT[]){1, 1, 1, 1, 1, 1, 1, 4, 5}, NULL);
    unit_tensor_set(&g.c, F32, 9, (UINT[]){1, 1, 1, 1, 1, 1, 1, 3, 5}, NULL);
    unit_tensor_set(&g.out, F32, 9, (UINT[]){1, 1, 1, 1, 1, 1, 1, 3, 5}, NULL);
    EXPECT(create(&g), E_INVALIDARG, "GEMM", "ATensor.DimensionCount (9)", "[1, 8]");
}

Test(gemm_validate, transforms)
{
    gemm g;
    gemm_init(&g, F32, 2, false);
    g.d.TransA = (DML_MATRIX_TRANSFORM)2;
    EXPECT(create(&g), E_INVALIDARG, "GEMM", "TransA (2)", "DML_MATRIX_TRANSFORM_NONE (0)",
           "DML_MATRIX_TRANSFORM_TRANSPOSE (1)");
    gemm_init(&g, F32, 2, false);
    g.d.TransB = (DML_MATRIX_TRANSFORM)-1;
    EXPECT(create(&g), E_INVALIDARG, "GEMM", "TransB (-1)", "DML_MATRIX_TRANSFORM_NONE (0)");
}

Test(gemm_validate, inner_dimensions)
{
    gemm g;
    /* A {2, 3, 4}, B {2, 6, 5}: K 4 against 6. */
    gemm_init(&g, F32, 3, false);
    unit_tensor_set(&g.b, F32, 3, (UINT[]){2, 6, 5}, NULL);
    EXPECT(create(&g), E_INVALIDARG, "GEMM", "inner dimensions",
           "ATensor's K (Sizes[2] = 4, TransA NONE)", "BTensor's K (Sizes[1] = 6, TransB NONE)");
    /* TransA reads A's K from Sizes[r - 2]: A {3, 4} transposed has K 3. */
    gemm_init(&g, F32, 2, false);
    g.d.TransA = TRANSPOSE;
    EXPECT(create(&g), E_INVALIDARG, "ATensor's K (Sizes[0] = 3, TransA TRANSPOSE)",
           "BTensor's K (Sizes[0] = 4, TransB NONE)");
    /* TransB reads B's K from Sizes[r - 1]: B {4, 5} transposed has K 5. */
    gemm_init(&g, F32, 2, false);
    g.d.TransB = TRANSPOSE;
    EXPECT(create(&g), E_INVALIDARG, "ATensor's K (Sizes[1] = 4, TransA NONE)",
           "BTensor's K (Sizes[1] = 5, TransB TRANSPOSE)");
}

Test(gemm_validate, batch_and_sizes)
{
    gemm g;
    /* B's batch 3 against A's 2 (a broadcast batch is a stride of 0, not a size of 1). */
    gemm_init(&g, F32, 3, false);
    unit_tensor_set(&g.b, F32, 3, (UINT[]){3, 4, 5}, NULL);
    EXPECT(create(&g), E_INVALIDARG, "GEMM", "BTensor.Sizes[0] (3)", "ATensor.Sizes[0] (2)",
           "stride of 0");
    gemm_init(&g, F32, 3, false);
    unit_tensor_set(&g.b, F32, 3, (UINT[]){1, 4, 5}, NULL);
    EXPECT(create(&g), E_INVALIDARG, "BTensor.Sizes[0] (1)", "ATensor.Sizes[0] (2)");
    /* The output: A's batch, M, N. */
    gemm_init(&g, F32, 3, false);
    unit_tensor_set(&g.out, F32, 3, (UINT[]){2, 3, 4}, NULL);
    EXPECT(create(&g), E_INVALIDARG, "GEMM", "OutputTensor.Sizes ({2,3,4})", "{2,3,5}",
           "A's batch sizes, then M and N");
    gemm_init(&g, F32, 3, false);
    unit_tensor_set(&g.out, F32, 3, (UINT[]){1, 3, 5}, NULL);
    EXPECT(create(&g), E_INVALIDARG, "OutputTensor.Sizes ({1,3,5})", "{2,3,5}");
    gemm_init(&g, F32, 2, false);
    g.d.TransA = TRANSPOSE;
    unit_tensor_set(&g.a, F32, 2, (UINT[]){4, 7}, NULL);
    EXPECT(create(&g), E_INVALIDARG, "OutputTensor.Sizes ({3,5})", "{7,5}");
    /* C has the output's sizes: a broadcast C is described by strides, not sizes of 1. */
    gemm_init(&g, F32, 3, true);
    unit_tensor_set(&g.c, F32, 3, (UINT[]){2, 1, 5}, NULL);
    EXPECT(create(&g), E_INVALIDARG, "GEMM", "CTensor.Sizes ({2,1,5})", "{2,3,5}",
           "a broadcast C is a stride of 0");
    gemm_init(&g, F32, 2, true);
    unit_tensor_set(&g.c, F32, 2, (UINT[]){1, 1}, NULL);
    EXPECT(create(&g), E_INVALIDARG, "CTensor.Sizes ({1,1})", "{3,5}");
}

Test(gemm_validate, fused_activation)
{
    gemm g;
    gemm_init(&g, F32, 2, true);
    /* SOFTMAX and SOFTMAX1 fuse into GEMM alone (feature level 6.1): LOG_SOFTMAX does not. */
    g.act = (DML_OPERATOR_DESC){DML_OPERATOR_ACTIVATION_LOG_SOFTMAX, &g.act_desc};
    g.d.FusedActivation = &g.act;
    EXPECT(create(&g), E_INVALIDARG, "GEMM", "FusedActivation->Type",
           "DML_OPERATOR_ACTIVATION_LOG_SOFTMAX", "not an activation DirectML fuses");
    gemm_init(&g, F32, 2, true);
    g.act = (DML_OPERATOR_DESC){DML_OPERATOR_ACTIVATION_SOFTMAX, &g.act_desc};
    g.d.FusedActivation = &g.act;
    cr_expect_eq(create(&g), S_OK, "%s", dmlcl_last_error());
    static const UINT far[1] = {2}, twice[2] = {0, 0};
    DML_ACTIVATION_SOFTMAX1_OPERATOR_DESC sm1 = {NULL, NULL, 1, far};
    gemm_init(&g, F32, 2, true);
    g.act = (DML_OPERATOR_DESC){DML_OPERATOR_ACTIVATION_SOFTMAX1, &sm1};
    g.d.FusedActivation = &g.act;
    EXPECT(create(&g), E_INVALIDARG, "GEMM", "FusedActivation", "Axes[0] (2)",
           "below InputTensor.DimensionCount (2)");
    sm1 = (DML_ACTIVATION_SOFTMAX1_OPERATOR_DESC){NULL, NULL, 2, twice};
    EXPECT(create(&g), E_INVALIDARG, "Axes[1] (0) repeats an axis");
    static const UINT columns[1] = {1};
    sm1 = (DML_ACTIVATION_SOFTMAX1_OPERATOR_DESC){NULL, NULL, 1, columns};
    cr_expect_eq(create(&g), S_OK, "%s", dmlcl_last_error());
    sm1.OutputTensor = g.d.OutputTensor;
    EXPECT(create(&g), E_INVALIDARG, "FusedActivation->Desc->OutputTensor must be NULL");
    gemm_init(&g, F32, 2, true);
    g.act = (DML_OPERATOR_DESC){DML_OPERATOR_GEMM, &g.act_desc};
    g.d.FusedActivation = &g.act;
    EXPECT(create(&g), E_INVALIDARG, "FusedActivation->Type", "DML_OPERATOR_GEMM",
           "not an activation DirectML fuses");
    gemm_init(&g, F32, 2, true);
    g.act = (DML_OPERATOR_DESC){DML_OPERATOR_ACTIVATION_RELU, NULL};
    g.d.FusedActivation = &g.act;
    EXPECT(create(&g), E_INVALIDARG, "FusedActivation->Desc (NULL)",
           "DML_ACTIVATION_RELU_OPERATOR_DESC");
    /* A fused activation's tensors are the operator's own output. */
    gemm_init(&g, F32, 2, true);
    g.act_desc.InputTensor = g.d.OutputTensor;
    g.act = (DML_OPERATOR_DESC){DML_OPERATOR_ACTIVATION_RELU, &g.act_desc};
    g.d.FusedActivation = &g.act;
    EXPECT(create(&g), E_INVALIDARG, "FusedActivation->Desc->InputTensor", "must be NULL");
}

static void lower(const gemm *g, dmli_op_state *st)
{
    memset(st, 0, sizeof *st);
    cr_assert_eq(dmli_op_class_create(dmli_op_class_find(DML_OPERATOR_GEMM), &g->d, st), S_OK, "%s",
                 dmlcl_last_error());
    cr_assert(st->computed);
    cr_assert_eq(st->compute.kind, DMLI_COMPUTE_GEMM);
}

Test(gemm_validate, lowered)
{
    static dmli_op_state st;
    gemm g;
    /* Packed {2, 3, 4} x {2, 4, 5} + C {2, 3, 5}: strides as laid out. */
    gemm_init(&g, F32, 3, true);
    g.d.Alpha = 0.5f;
    g.d.Beta = 2;
    lower(&g, &st);
    const dmli_gemm *w = DMLI_COMPUTE_WORK_CONST(&st.compute, dmli_gemm);
    cr_expect_eq(w->type, F32);
    cr_expect_eq(w->m, 3);
    cr_expect_eq(w->n, 5);
    cr_expect_eq(w->k, 4);
    cr_expect_eq(w->a_m, 4);
    cr_expect_eq(w->a_k, 1);
    cr_expect_eq(w->b_k, 5);
    cr_expect_eq(w->b_n, 1);
    cr_expect(w->has_c);
    cr_expect_eq(w->c_m, 5);
    cr_expect_eq(w->c_n, 1);
    cr_expect_eq(w->o_m, 5);
    cr_expect_eq(w->o_n, 1);
    cr_expect_eq(w->batch_rank, 1);
    cr_expect_eq(w->batch[0], 2);
    cr_expect_eq(w->a_b[0], 12);
    cr_expect_eq(w->b_b[0], 20);
    cr_expect_eq(w->c_b[0], 15);
    cr_expect_eq(w->o_b[0], 15);
    cr_expect_eq(w->alpha, 0.5);
    cr_expect_eq(w->beta, 2.0);
    cr_expect_eq(w->act, DMLI_ACT_NONE);
    /* A, B, C, the output. */
    cr_assert_eq(st.compute.n_tensors, 4);
    cr_expect(!st.compute.tensors[0].output && st.compute.tensors[0].slot == 0);
    cr_expect(!st.compute.tensors[1].output && st.compute.tensors[1].slot == 1);
    cr_expect(!st.compute.tensors[2].output && st.compute.tensors[2].slot == 2);
    cr_expect(st.compute.tensors[3].output && st.compute.tensors[3].slot == 0);
    cr_expect(!st.compute.empty);
    dmli_op_state_release(&st);

    /* TransA, TransB: A {K, M} = {4, 3}, B {N, K} = {5, 4}; the strides swap, no copy. */
    gemm_init(&g, F16, 2, false);
    unit_tensor_set(&g.a, F16, 2, (UINT[]){4, 3}, NULL);
    unit_tensor_set(&g.b, F16, 2, (UINT[]){5, 4}, NULL);
    g.d.TransA = TRANSPOSE;
    g.d.TransB = TRANSPOSE;
    g.d.Beta = 3; /* ignored without C */
    lower(&g, &st);
    w = DMLI_COMPUTE_WORK_CONST(&st.compute, dmli_gemm);
    cr_expect_eq(w->type, F16);
    cr_expect_eq(w->m, 3);
    cr_expect_eq(w->n, 5);
    cr_expect_eq(w->k, 4);
    cr_expect_eq(w->a_m, 1);
    cr_expect_eq(w->a_k, 3);
    cr_expect_eq(w->b_k, 1);
    cr_expect_eq(w->b_n, 4);
    cr_expect_eq(w->batch_rank, 0);
    /* C absent: Beta 0, A listed in its place (never read: the kernel's arguments stay
     * fixed), then the output. */
    cr_expect(!w->has_c);
    cr_expect_eq(w->beta, 0.0);
    cr_assert_eq(st.compute.n_tensors, 4);
    cr_expect(!st.compute.tensors[1].output && st.compute.tensors[1].slot == 1);
    cr_expect(!st.compute.tensors[2].output && st.compute.tensors[2].slot == 0);
    cr_expect(st.compute.tensors[3].output && st.compute.tensors[3].slot == 0);
    dmli_op_state_release(&st);

    /* A transposed operand described by strides, TransA NONE: A {3, 4} with strides {1, 3}. */
    gemm_init(&g, F32, 2, false);
    unit_tensor_set(&g.a, F32, 2, (UINT[]){3, 4}, (UINT[]){1, 3});
    lower(&g, &st);
    w = DMLI_COMPUTE_WORK_CONST(&st.compute, dmli_gemm);
    cr_expect_eq(w->a_m, 1);
    cr_expect_eq(w->a_k, 3);
    dmli_op_state_release(&st);
}

Test(gemm_validate, lowered_batch)
{
    static dmli_op_state st;
    gemm g;
    /* 6-D {2, 1, 3, 1, M, K}: the batch dimensions of size 1 are dropped; B broadcast over the
     * first (stride 0), C broadcast over everything but N (strides 0). */
    gemm_init(&g, F32, 2, true);
    unit_tensor_set(&g.a, F32, 6, (UINT[]){2, 1, 3, 1, 3, 4}, NULL);
    unit_tensor_set(&g.b, F32, 6, (UINT[]){2, 1, 3, 1, 4, 5}, (UINT[]){0, 60, 20, 20, 5, 1});
    unit_tensor_set(&g.c, F32, 6, (UINT[]){2, 1, 3, 1, 3, 5}, (UINT[]){0, 0, 0, 0, 0, 1});
    unit_tensor_set(&g.out, F32, 6, (UINT[]){2, 1, 3, 1, 3, 5}, NULL);
    DML_ACTIVATION_LEAKY_RELU_OPERATOR_DESC leaky = {NULL, NULL, 0.25f};
    g.act = (DML_OPERATOR_DESC){DML_OPERATOR_ACTIVATION_LEAKY_RELU, &leaky};
    g.d.FusedActivation = &g.act;
    lower(&g, &st);
    const dmli_gemm *w = DMLI_COMPUTE_WORK_CONST(&st.compute, dmli_gemm);
    cr_assert_eq(w->batch_rank, 2);
    cr_expect_eq(w->batch[0], 2);
    cr_expect_eq(w->batch[1], 3);
    cr_expect_eq(w->a_b[0], 36);
    cr_expect_eq(w->a_b[1], 12);
    cr_expect_eq(w->b_b[0], 0);
    cr_expect_eq(w->b_b[1], 20);
    cr_expect_eq(w->c_b[0], 0);
    cr_expect_eq(w->c_b[1], 0);
    cr_expect_eq(w->c_m, 0);
    cr_expect_eq(w->c_n, 1);
    cr_expect_eq(w->o_b[0], 45);
    cr_expect_eq(w->o_b[1], 15);
    cr_expect_eq(w->act, DMLI_ACT_LEAKY_RELU);
    cr_expect_eq(w->act_param[0], 0.25);
    dmli_op_state_release(&st);

    /* Every batch dimension of size 1: none left. */
    gemm_init(&g, F32, 2, false);
    unit_tensor_set(&g.a, F32, 4, (UINT[]){1, 1, 3, 4}, NULL);
    unit_tensor_set(&g.b, F32, 4, (UINT[]){1, 1, 4, 5}, NULL);
    unit_tensor_set(&g.out, F32, 4, (UINT[]){1, 1, 3, 5}, NULL);
    lower(&g, &st);
    w = DMLI_COMPUTE_WORK_CONST(&st.compute, dmli_gemm);
    cr_expect_eq(w->batch_rank, 0);
    dmli_op_state_release(&st);
}
