// Engine singleton, engine factory, error naming and DeduplicateVarHandle.
#include <pthread.h>

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <string>

#include "./engine_impl.h"

namespace mxnet {
namespace engine {

namespace {
const char kDefaultEngine[] = "ThreadedEnginePerDevice";

// The process-wide engine while it is alive, for the fork handlers.
std::atomic<Engine*> fork_engine{nullptr};

// Worker threads do not survive fork(): the engine finishes its work and joins them before the
// fork, and creates them again on demand in both processes (Python DataLoader workers fork).
// A fork from inside an engine function cannot wait for the engine: it is left alone.
void ForkPrepare() {
  Engine* eng = fork_engine.load();
  if (eng != nullptr && !IsEngineWorkerThread()) eng->Stop();
}
void ForkParentOrChild() {
  Engine* eng = fork_engine.load();
  if (eng != nullptr && !IsEngineWorkerThread()) eng->Start();
}

std::string NamedMessage(const char* what, const char* opr_name) {
  std::string msg(what);
  msg += "\nError in operator ";
  msg += opr_name;
  return msg;
}
}  // namespace

std::unique_ptr<Engine> CreateEngine(const std::string& type) {
  if (type == "NaiveEngine") return CreateNaiveEngine();
  if (type == "ThreadedEngine" || type == "ThreadedEnginePooled") {
    return CreateThreadedEnginePooled();
  }
  if (type == "ThreadedEnginePerDevice") return CreateThreadedEnginePerDevice();
  LOG(FATAL) << "Cannot find Engine " << type;
  return nullptr;
}

std::exception_ptr NameOperatorError(const dmlc::Error& e, const char* opr_name) {
  const std::string msg = opr_name != nullptr ? NamedMessage(e.what(), opr_name) : e.what();
  // Keep the typed class: the frontend maps it to the Python exception class.
#define MXNET_ENGINE_COPY_TYPED(T) \
  if (dynamic_cast<const T*>(&e) != nullptr) return std::make_exception_ptr(T(msg));
  MXNET_ENGINE_COPY_TYPED(dmlc::ValueError)
  MXNET_ENGINE_COPY_TYPED(dmlc::TypeError)
  MXNET_ENGINE_COPY_TYPED(dmlc::IndexError)
  MXNET_ENGINE_COPY_TYPED(dmlc::AttributeError)
  MXNET_ENGINE_COPY_TYPED(dmlc::NotImplementedError)
  MXNET_ENGINE_COPY_TYPED(dmlc::InternalError)
  MXNET_ENGINE_COPY_TYPED(dmlc::ParamError)
#undef MXNET_ENGINE_COPY_TYPED
  return std::make_exception_ptr(dmlc::Error(msg));
}

std::exception_ptr NameOperatorError(std::exception_ptr e, const char* opr_name) {
  if (opr_name == nullptr) return e;
  try {
    std::rethrow_exception(e);
  } catch (const dmlc::Error& err) {
    return NameOperatorError(err, opr_name);
  } catch (const std::exception& err) {
    return std::make_exception_ptr(dmlc::Error(NamedMessage(err.what(), opr_name)));
  } catch (...) {
    return std::make_exception_ptr(dmlc::Error(NamedMessage("unknown exception", opr_name)));
  }
}

}  // namespace engine

std::shared_ptr<Engine> Engine::_GetSharedRef() {
  static std::shared_ptr<Engine> sptr = []() {
    const char* env = std::getenv("MXNET_ENGINE_TYPE");
    const std::string type = env != nullptr && *env != '\0' ? env : engine::kDefaultEngine;
    std::shared_ptr<Engine> eng(engine::CreateEngine(type).release(), [](Engine* e) {
      engine::fork_engine.store(nullptr);
      // exit() called from inside an engine function: the engine cannot wait for itself
      // (nor join its own thread); leave it to the process teardown.
      if (engine::IsEngineWorkerThread()) return;
      delete e;
    });
    if (type != engine::kDefaultEngine) LOG(INFO) << "MXNet start using engine: " << type;
    engine::fork_engine.store(eng.get());
    static const int registered = pthread_atfork(engine::ForkPrepare, engine::ForkParentOrChild,
                                                 engine::ForkParentOrChild);
    (void)registered;
    return eng;
  }();
  return sptr;
}

Engine* Engine::Get() {
  static Engine* inst = _GetSharedRef().get();
  return inst;
}

void Engine::DeduplicateVarHandle(std::vector<VarHandle>* read, std::vector<VarHandle>* write) {
  std::sort(write->begin(), write->end());
  write->erase(std::unique(write->begin(), write->end()), write->end());
  std::sort(read->begin(), read->end());
  read->erase(std::unique(read->begin(), read->end()), read->end());
  read->erase(std::remove_if(read->begin(), read->end(),
                             [write](VarHandle v) {
                               return std::binary_search(write->begin(), write->end(), v);
                             }),
              read->end());
}

}  // namespace mxnet
