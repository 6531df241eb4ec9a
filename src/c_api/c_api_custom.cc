// C API of custom operators (Python CustomOp): registration of property creators.
#include <mxnet/c_api.h>

#include "../operator/custom/custom-inl.h"
#include "c_api_common.h"

int MXCustomOpRegister(const char* op_type, CustomOpPropCreator creator) {
  API_BEGIN();
  CHECK(op_type != nullptr && *op_type != '\0') << "MXCustomOpRegister: empty op_type";
  CHECK(creator != nullptr) << "MXCustomOpRegister: null creator for " << op_type;
  mxnet::op::custom::CustomOperator::Get()->Register(op_type, creator);
  API_END();
}
