/* SPDX-License-Identifier: MIT */
/* The recurrent layers' oracle (ref_rnn.h). */
#include "ref_rnn.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

uint32_t ref_rnn_gates(ref_rnn_cell cell)
{
    return cell == REF_RNN_SIMPLE ? 1 : (cell == REF_RNN_GRU ? 3 : 4);
}

uint32_t ref_rnn_acts(ref_rnn_cell cell)
{
    return cell == REF_RNN_SIMPLE ? 1 : (cell == REF_RNN_GRU ? 2 : 3);
}

typedef struct rnn_step {
    const ref_rnn_desc *d;
    uint32_t dir, gates;
    const double *xt, *w, *r, *b;
} rnn_step;

/* x . W[row] + Wb[row], and v . R[row] + Rb[row] (v the state or GRU's r * H). */
static double xpart(const rnn_step *s, uint32_t row)
{
    const ref_rnn_desc *d = s->d;
    double acc = 0.0;
    const double *wr = s->w + ((size_t)s->dir * s->gates * d->hidden + row) * d->input;
    for (uint32_t k = 0; k < d->input; ++k)
        acc += s->xt[k] * wr[k];
    if (s->b)
        acc += s->b[(size_t)s->dir * 2 * s->gates * d->hidden + row];
    return acc;
}

static double hpart(const rnn_step *s, const double *v, uint32_t row)
{
    const ref_rnn_desc *d = s->d;
    double acc = 0.0;
    const double *rr = s->r + ((size_t)s->dir * s->gates * d->hidden + row) * d->hidden;
    for (uint32_t k = 0; k < d->hidden; ++k)
        acc += v[k] * rr[k];
    if (s->b)
        acc += s->b[(size_t)s->dir * 2 * s->gates * d->hidden + s->gates * d->hidden + row];
    return acc;
}

static double act(const rnn_step *s, uint32_t k, double v)
{
    uint32_t i = s->dir * ref_rnn_acts(s->d->cell) + k;
    return ref_act_real(s->d->act[i], s->d->param[i], v);
}

static double clip(const ref_rnn_desc *d, double v)
{
    if (!d->clip)
        return v;
    return v < -d->clip_threshold ? -d->clip_threshold
                                  : (v > d->clip_threshold ? d->clip_threshold : v);
}

/* One step of direction s->dir: h (and c) from their previous values into hn (cn). */
static void step(const rnn_step *s, const double *h, const double *c, const double *p, double *hn,
                 double *cn, double *scratch)
{
    const ref_rnn_desc *d = s->d;
    const uint32_t n = d->hidden;
    if (d->cell == REF_RNN_SIMPLE) {
        for (uint32_t j = 0; j < n; ++j)
            hn[j] = act(s, 0, xpart(s, j) + hpart(s, h, j));
        return;
    }
    if (d->cell == REF_RNN_GRU) {
        for (uint32_t j = 0; j < n; ++j)
            scratch[j] = act(s, 0, xpart(s, n + j) + hpart(s, h, n + j)); /* r */
        double *rh = scratch + n;
        for (uint32_t j = 0; j < n; ++j)
            rh[j] = scratch[j] * h[j];
        for (uint32_t j = 0; j < n; ++j) {
            double z = act(s, 0, xpart(s, j) + hpart(s, h, j));
            double a = d->linear_before_reset
                           ? xpart(s, 2 * n + j) + scratch[j] * hpart(s, h, 2 * n + j)
                           : xpart(s, 2 * n + j) + hpart(s, rh, 2 * n + j);
            hn[j] = (1.0 - z) * act(s, 1, a) + z * h[j];
        }
        return;
    }
    const double *pd = p ? p + (size_t)s->dir * 3 * n : NULL;
    for (uint32_t j = 0; j < n; ++j) {
        double pi = pd ? pd[j] : 0.0, po = pd ? pd[n + j] : 0.0, pf = pd ? pd[2 * n + j] : 0.0;
        double i = act(s, 0, clip(d, xpart(s, j) + hpart(s, h, j) + pi * c[j]));
        double f =
            d->couple
                ? 1.0 - i
                : act(s, 0, clip(d, xpart(s, 2 * n + j) + hpart(s, h, 2 * n + j) + pf * c[j]));
        double g = act(s, 1, clip(d, xpart(s, 3 * n + j) + hpart(s, h, 3 * n + j)));
        cn[j] = f * c[j] + i * g;
        double o = act(s, 0, clip(d, xpart(s, n + j) + hpart(s, h, n + j) + po * cn[j]));
        hn[j] = o * act(s, 2, cn[j]);
    }
}

void ref_rnn(const ref_rnn_desc *d, const double *x, const double *w, const double *r,
             const double *b, const double *h0, const double *c0, const uint32_t *len,
             const double *p, double *y, double *yh, double *yc)
{
    const uint32_t n = d->hidden, dirs = d->directions;
    double *buf = calloc((size_t)6 * n, sizeof *buf);
    if (!buf)
        abort();
    double *h = buf, *c = buf + n, *hn = buf + 2 * n, *cn = buf + 3 * n, *scratch = buf + 4 * n;
    if (y)
        memset(y, 0, sizeof *y * d->seq * dirs * d->batch * n);
    for (uint32_t dir = 0; dir < dirs; ++dir) {
        bool backward = d->backward || dir == 1;
        for (uint32_t bi = 0; bi < d->batch; ++bi) {
            size_t at = ((size_t)dir * d->batch + bi) * n;
            for (uint32_t j = 0; j < n; ++j) {
                h[j] = h0 ? h0[at + j] : 0.0;
                c[j] = c0 ? c0[at + j] : 0.0;
            }
            uint32_t steps = len && len[bi] < d->seq ? len[bi] : d->seq;
            for (uint32_t k = 0; k < steps; ++k) {
                uint32_t t = backward ? steps - 1 - k : k;
                rnn_step s = {
                    d, dir, ref_rnn_gates(d->cell), x + ((size_t)t * d->batch + bi) * d->input, w,
                    r, b};
                step(&s, h, c, p, hn, cn, scratch);
                memcpy(h, hn, sizeof *h * n);
                if (d->cell == REF_RNN_LSTM)
                    memcpy(c, cn, sizeof *c * n);
                if (y)
                    memcpy(y + (((size_t)t * dirs + dir) * d->batch + bi) * n, h, sizeof *h * n);
            }
            if (yh)
                memcpy(yh + at, h, sizeof *h * n);
            if (yc)
                memcpy(yc + at, c, sizeof *c * n);
        }
    }
    free(buf);
}
