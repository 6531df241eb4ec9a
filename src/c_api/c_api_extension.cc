// C API of extension libraries: a shim over src/extension/.
#include <mxnet/c_api.h>

#include "../extension/extension_library.h"
#include "c_api_common.h"

int MXLoadLib(const char* path, unsigned verbose) {
  API_BEGIN();
  mxnet::ext_loader::LoadExtensionLibrary(path == nullptr ? "" : path, verbose != 0);
  API_END();
}
