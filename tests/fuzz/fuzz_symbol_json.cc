// The symbol JSON loader: arbitrary text gives a graph that survives saving, listing and shape
// inference, or an error with a message.
#include <mxnet/c_api.h>

#include <string>

#include "fuzz_util.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string json(reinterpret_cast<const char*>(data), size);
  SymbolHandle symbol = nullptr;
  int rc = MXSymbolCreateFromJSON(json.c_str(), &symbol);
  ExpectMessageOnFailure(rc, MXGetLastError);
  if (rc != 0) return 0;

  const char* saved = nullptr;
  if (MXSymbolSaveToJSON(symbol, &saved) != 0) abort();  // a loaded graph can be saved
  SymbolHandle reloaded = nullptr;
  if (MXSymbolCreateFromJSON(saved, &reloaded) != 0) abort();  // and what we save loads
  MXSymbolFree(reloaded);

  uint32_t count = 0;
  const char** names = nullptr;
  ExpectMessageOnFailure(MXSymbolListArguments(symbol, &count, &names), MXGetLastError);
  ExpectMessageOnFailure(MXSymbolListOutputs(symbol, &count, &names), MXGetLastError);
  ExpectMessageOnFailure(MXSymbolListAuxiliaryStates(symbol, &count, &names), MXGetLastError);
  ExpectMessageOnFailure(MXSymbolListAttr(symbol, &count, &names), MXGetLastError);

  uint32_t in_size = 0, out_size = 0, aux_size = 0;
  const int *in_ndim = nullptr, *out_ndim = nullptr, *aux_ndim = nullptr;
  const int **in_data = nullptr, **out_data = nullptr, **aux_data = nullptr;
  int complete = 0;
  const uint32_t no_shapes[1] = {0};
  rc = MXSymbolInferShapePartialEx(symbol, 0, nullptr, no_shapes, nullptr, &in_size, &in_ndim,
                                   &in_data, &out_size, &out_ndim, &out_data, &aux_size,
                                   &aux_ndim, &aux_data, &complete);
  ExpectMessageOnFailure(rc, MXGetLastError);
  MXSymbolFree(symbol);
  return 0;
}
