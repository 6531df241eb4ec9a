/*!
 * \file engine/object_pool.h
 * \brief Recycling allocator for the engine's small, short-lived objects (operator blocks, var
 *        queue entries, variables), so a push does not touch the heap.
 *
 *   Foo* f = ObjectPool<Foo>::New(args...);   // constructed in recycled memory
 *   ObjectPool<Foo>::Delete(f);               // destroyed; memory kept for reuse
 *
 * Objects are typically made on the pushing thread and released on a worker. Each thread keeps
 * a private free list; a release goes to a lock-free global return stack (Treiber push), which an
 * allocating thread takes whole (one exchange, so no ABA) when its own list is empty. Memory is
 * carved from 64 KiB chunks that are never returned to the system: the pools live for the whole
 * process and outlive every engine (static destruction order does not matter).
 */
#ifndef MXNET_ENGINE_OBJECT_POOL_H_
#define MXNET_ENGINE_OBJECT_POOL_H_

#include <atomic>
#include <cstddef>
#include <cstdlib>
#include <new>
#include <utility>

namespace mxnet {
namespace engine {

template <typename T>
class ObjectPool {
 public:
  /*! \brief Default-initialized (not zeroed: members without initializers are garbage). */
  static T* New() { return new (Local().Get()) T; }
  template <typename... Args>
  static T* New(Args&&... args) {
    return new (Local().Get()) T(std::forward<Args>(args)...);
  }
  static void Delete(T* p) {
    p->~T();
    Shared().Put(reinterpret_cast<Node*>(p));
  }

 private:
  union Node {
    Node* next;
    alignas(T) unsigned char storage[sizeof(T)];
  };

  /*! \brief Process-wide part: return stack and chunk carving. Never destroyed. */
  struct SharedPart {
    std::atomic<Node*> returned{nullptr};

    void Put(Node* n) {
      Node* head = returned.load(std::memory_order_relaxed);
      do {
        n->next = head;
      } while (!returned.compare_exchange_weak(head, n, std::memory_order_release,
                                               std::memory_order_relaxed));
    }
    Node* TakeAll() { return returned.exchange(nullptr, std::memory_order_acquire); }
  };

  /*! \brief Per-thread free list; handed back to the shared stack when the thread exits. */
  struct LocalPart {
    Node* free{nullptr};

    void* Get() {
      if (free == nullptr) free = Shared().TakeAll();
      if (free == nullptr) free = NewChunk();
      Node* n = free;
      free = n->next;
      return n;
    }
    ~LocalPart() {
      while (free != nullptr) {
        Node* n = free;
        free = n->next;
        Shared().Put(n);
      }
    }
  };

  static Node* NewChunk() {
    constexpr size_t kChunkBytes = 64 << 10;
    constexpr size_t kCount = kChunkBytes / sizeof(Node) > 0 ? kChunkBytes / sizeof(Node) : 1;
    Node* chunk = static_cast<Node*>(::operator new(kCount * sizeof(Node)));
    for (size_t i = 0; i + 1 < kCount; ++i) chunk[i].next = &chunk[i + 1];
    chunk[kCount - 1].next = nullptr;
    return chunk;
  }

  static SharedPart& Shared() {
    static SharedPart* shared = new SharedPart();  // intentionally leaked: outlives all threads
    return *shared;
  }
  static LocalPart& Local() {
    static thread_local LocalPart local;
    return local;
  }
};

}  // namespace engine
}  // namespace mxnet

#endif  // MXNET_ENGINE_OBJECT_POOL_H_
