/* dmlcl/frontend_broadcast.h: framework front-ends. Included by dmlcl/frontends.h. */
#ifndef DMLCL_FRONTEND_BROADCAST_H
#define DMLCL_FRONTEND_BROADCAST_H

#ifdef __cplusplus
extern "C" {
#endif

#ifdef __cplusplus
}
#endif

#endif /* DMLCL_FRONTEND_BROADCAST_H */
