/* SPDX-License-Identifier: MIT */
#include <math.h>
#include <stdlib.h>

#include "ref_train.h"

/* Whether q lies in the window of position p along an axis of size n (local size w). */
static bool in_window(int64_t p, int64_t q, uint32_t w)
{
    int64_t lo = p - (int64_t)(w - 1) / 2, hi = p + (int64_t)w / 2;
    return q >= lo && q <= hi;
}

static uint64_t at(const uint32_t s[4], const int64_t *c)
{
    return (((uint64_t)c[0] * s[1] + (uint64_t)c[1]) * s[2] + (uint64_t)c[2]) * s[3] +
           (uint64_t)c[3];
}

/* D at every element: bias + alpha / n * (squares over the element's window). */
static void denominators(const uint32_t s[4], const double *x, bool cross, uint32_t w, double alpha,
                         double bias, double *d)
{
    int64_t c[4];
    for (c[0] = 0; c[0] < s[0]; ++c[0])
        for (c[1] = 0; c[1] < s[1]; ++c[1])
            for (c[2] = 0; c[2] < s[2]; ++c[2])
                for (c[3] = 0; c[3] < s[3]; ++c[3]) {
                    double sum = 0;
                    int64_t q[4] = {c[0], c[1], c[2], c[3]};
                    if (cross) {
                        for (q[1] = 0; q[1] < s[1]; ++q[1])
                            if (in_window(c[1], q[1], w))
                                sum += x[at(s, q)] * x[at(s, q)];
                    } else {
                        for (q[2] = 0; q[2] < s[2]; ++q[2])
                            for (q[3] = 0; q[3] < s[3]; ++q[3])
                                if (in_window(c[2], q[2], w) && in_window(c[3], q[3], w))
                                    sum += x[at(s, q)] * x[at(s, q)];
                    }
                    d[at(s, c)] = bias + alpha / w * sum;
                }
}

void ref_lrn_forward(const uint32_t sizes[4], const double *x, bool cross_channel,
                     uint32_t local_size, double alpha, double beta, double bias, double *y)
{
    uint64_t n = (uint64_t)sizes[0] * sizes[1] * sizes[2] * sizes[3];
    double *d = malloc(n * sizeof *d);
    denominators(sizes, x, cross_channel, local_size, alpha, bias, d);
    for (uint64_t i = 0; i < n; ++i)
        y[i] = x[i] * pow(d[i], -beta);
    free(d);
}

void ref_lrn_grad(const uint32_t sizes[4], const double *x, const double *dy, bool cross_channel,
                  uint32_t local_size, double alpha, double beta, double bias, double *dx,
                  double *scale)
{
    const uint32_t *s = sizes;
    uint64_t n = (uint64_t)s[0] * s[1] * s[2] * s[3];
    double *d = malloc(n * sizeof *d);
    denominators(s, x, cross_channel, local_size, alpha, bias, d);
    double k = 2 * alpha * beta / local_size;
    int64_t j[4];
    for (j[0] = 0; j[0] < s[0]; ++j[0])
        for (j[1] = 0; j[1] < s[1]; ++j[1])
            for (j[2] = 0; j[2] < s[2]; ++j[2])
                for (j[3] = 0; j[3] < s[3]; ++j[3]) {
                    uint64_t e = at(s, j);
                    double sum = 0, mag = 0;
                    int64_t i[4] = {j[0], j[1], j[2], j[3]};
                    /* Every forward element i of j's batch (and channel, within a channel)
                     * whose window holds j. */
                    int64_t c_lo = cross_channel ? 0 : j[1], c_hi = cross_channel ? s[1] : j[1] + 1;
                    int64_t h_lo = cross_channel ? j[2] : 0, h_hi = cross_channel ? j[2] + 1 : s[2];
                    int64_t w_lo = cross_channel ? j[3] : 0, w_hi = cross_channel ? j[3] + 1 : s[3];
                    for (i[1] = c_lo; i[1] < c_hi; ++i[1])
                        for (i[2] = h_lo; i[2] < h_hi; ++i[2])
                            for (i[3] = w_lo; i[3] < w_hi; ++i[3]) {
                                bool holds = cross_channel ? in_window(i[1], j[1], local_size)
                                                           : in_window(i[2], j[2], local_size) &&
                                                                 in_window(i[3], j[3], local_size);
                                if (!holds)
                                    continue;
                                uint64_t f = at(s, i);
                                double term = dy[f] * x[f] * pow(d[f], -beta - 1);
                                sum += term;
                                mag += fabs(term);
                            }
                    double own = dy[e] * pow(d[e], -beta);
                    dx[e] = own - k * x[e] * sum;
                    if (scale)
                        scale[e] = fabs(own) + fabs(k * x[e]) * mag;
                }
    free(d);
}

void ref_adam(uint64_t count, const double *x, const double *m, const double *v, const double *g,
              double step, double lr, double beta1, double beta2, double epsilon, double *x_out,
              double *m_out, double *v_out)
{
    double alpha = sqrt(1.0 - pow(beta2, step)) / (1.0 - pow(beta1, step));
    for (uint64_t i = 0; i < count; ++i) {
        double mi = beta1 * m[i] + (1.0 - beta1) * g[i];
        double vi = beta2 * v[i] + (1.0 - beta2) * g[i] * g[i];
        x_out[i] = x[i] - lr * alpha * mi / (sqrt(vi) + epsilon);
        m_out[i] = mi;
        v_out[i] = vi;
    }
}
