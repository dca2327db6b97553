/* dmlcl/ext_broadcast.h: broadcast with NUMPY / EXPLICIT / BIDIRECTIONAL modes (DMLCL_OPERATOR_BROADCAST). Included by dmlcl/extensions.h. */
#ifndef DMLCL_EXT_BROADCAST_H
#define DMLCL_EXT_BROADCAST_H

#include "dmlcl/directml.h"

#ifdef __cplusplus
extern "C" {
#endif

#ifdef __cplusplus
}
#endif

#endif /* DMLCL_EXT_BROADCAST_H */
