/* dmlcl/ext_slice.h: a strided slice with begin/end/stride lists and the five masks (DMLCL_OPERATOR_STRIDED_SLICE). Included by dmlcl/extensions.h. */
#ifndef DMLCL_EXT_SLICE_H
#define DMLCL_EXT_SLICE_H

#include "dmlcl/directml.h"

#ifdef __cplusplus
extern "C" {
#endif

#ifdef __cplusplus
}
#endif

#endif /* DMLCL_EXT_SLICE_H */
