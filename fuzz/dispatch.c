/* SPDX-License-Identifier: MIT */
/*
 * fuzz_dispatch: bytes -> dmlcl-dispatch's model reader (tools/dispatch: the JSON model,
 * its descriptors, graphs and bindings) or its dmlSerializedGraph reader (a FlatBuffer):
 * the first byte's low bit picks which, the rest is the file. Each well-formed operator
 * dispatchable is then created with a NULL device (validation only). Must return on any
 * input, with a message on every refusal; no device work, nothing written.
 */
#define _POSIX_C_SOURCE 200809L /* mkdtemp */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "dispatch/dispatch.h"
#include "drivers.h"

/* A folder of this process's own for the files the reader opens. */
static const char *scratch_dir(void)
{
    static char dir[256];
    if (dir[0] == '\0') {
        const char *tmp = getenv("TMPDIR");
        snprintf(dir, sizeof dir, "%s/dmlcl-fuzz-dispatch-XXXXXX", tmp && *tmp ? tmp : "/tmp");
        if (mkdtemp(dir) == NULL)
            dir[0] = '\0';
    }
    return dir[0] ? dir : NULL;
}

static int write_file(const char *path, const void *data, size_t size)
{
    FILE *f = fopen(path, "wb");
    if (f == NULL)
        return -1;
    int rc = fwrite(data, 1, size, f) == size ? 0 : -1;
    return fclose(f) == 0 ? rc : -1;
}

/* The model that reads a serialized graph from graph.bin (its inputs and outputs unbound: the
 * reader checks the graph alone). */
static const char graph_model[] =
    "{\"resources\": {}, \"dispatchables\": {\"g\": {\"type\": \"dmlSerializedGraph\", "
    "\"sourcePath\": \"graph.bin\"}}, \"commands\": []}";

int fuzz_dispatch(const uint8_t *data, size_t size, char *why, unsigned *accepted)
{
    const char *dir = scratch_dir();
    if (dir == NULL || size == 0)
        return 0;
    char model[512], graph[512];
    snprintf(model, sizeof model, "%s/model.json", dir);
    snprintf(graph, sizeof graph, "%s/graph.bin", dir);
    int written;
    if (data[0] & 1) /* a serialized graph, read through graph_model */
        written = write_file(graph, data + 1, size - 1) == 0 &&
                  write_file(model, graph_model, sizeof graph_model - 1) == 0;
    else
        written = write_file(model, data + 1, size - 1) == 0;
    if (!written)
        return 0;
    dsp_paths paths = {dir, dir};
    dsp_ctx c;
    memset(&c, 0, sizeof c);
    c.model_path = model;
    c.path[0] = '$';
    c.path_len = 1;
    dsp_model m;
    int bad = 0;
    if (dsp_model_load(&c, model, &paths, &m) != 0) {
        if (c.msg[0] == '\0') {
            snprintf(why, FUZZ_WHY, "dmlcl-dispatch refused a model without a message");
            bad = 1;
        }
    } else {
        for (unsigned i = 0; i < m.n_dispatchables; ++i) {
            const dsp_dispatchable *d = &m.dispatchables[i];
            if (d->graph || d->desc.Desc == NULL)
                continue;
            dmlcl_operator *o = NULL;
            if (SUCCEEDED(dmlcl_operator_create(NULL, &d->desc, &o))) {
                dmlcl_operator_release(o);
                if (accepted)
                    ++*accepted;
                bad = bad || fuzz_check_plan(&d->desc, why);
            }
        }
    }
    dsp_model_free(&m);
    dsp_arena_free(&c);
    return bad;
}
