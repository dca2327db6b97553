/* dmlcl/frontend_slice.h: framework front-ends. Included by dmlcl/frontends.h. */
#ifndef DMLCL_FRONTEND_SLICE_H
#define DMLCL_FRONTEND_SLICE_H

#ifdef __cplusplus
extern "C" {
#endif

#ifdef __cplusplus
}
#endif

#endif /* DMLCL_FRONTEND_SLICE_H */
