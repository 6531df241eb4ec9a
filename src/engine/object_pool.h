/*!
 * \file engine/object_pool.h
 * \brief Recycling allocator for the engine's small, short-lived objects (operator blocks, var
 *        queue entries, variables), so a push does not touch the heap.
 *
 *   Foo* f = ObjectPool<Foo>::New(args...);   // constructed in recycled memory
 *   ObjectPool<Foo>::Delete(f);               // destroyed; memory kept for reuse
 *
 * Objects are typically made on the pushing thread and released on a worker. Memory moves
 * between threads in batches: a release goes to the releasing thread's spill list, and a full
 * spill list (kBatch nodes) becomes one batch on a lock-free global stack of batches (Treiber
 * push). A thread whose free list is empty takes one batch: it takes the whole stack (one
 * exchange, so no ABA) and pushes back all but the first. Taking one batch rather than
 * everything matters when threads come and go: a thread that took all would leave the next one
 * nothing, so every new thread carved a new chunk and the pools grew with each thread started.
 * Memory is carved from 64 KiB chunks that are never returned to the system: the pools live
 * for the whole process and outlive every engine (static destruction order does not matter).
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

#if defined(__SANITIZE_ADDRESS__)
#define MXNET_OBJECT_POOL_BYPASS 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define MXNET_OBJECT_POOL_BYPASS 1
#endif
#endif

#ifdef MXNET_OBJECT_POOL_BYPASS
// Under AddressSanitizer every object gets its own heap block, so a use after Delete or a
// double Delete is reported where it happens instead of corrupting a recycled slot silently.
template <typename T>
class ObjectPool {
 public:
  static T* New() { return new T; }
  template <typename... Args>
  static T* New(Args&&... args) {
    return new T(std::forward<Args>(args)...);
  }
  static void Delete(T* p) { delete p; }
};
#else
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
    Local().Put(reinterpret_cast<Node*>(p));
  }

 private:
  static constexpr size_t kBatch = 256;

  /*! \brief A free slot: `next` links a batch's nodes; a batch's first node also links batches. */
  union Node {
    struct {
      Node* next;
      Node* next_batch;
    } link;
    alignas(T) unsigned char storage[sizeof(T)];
  };

  /*! \brief Process-wide stack of batches. Never destroyed. */
  struct SharedPart {
    std::atomic<Node*> batches{nullptr};

    void PushBatches(Node* first, Node* last) {
      Node* head = batches.load(std::memory_order_relaxed);
      do {
        last->link.next_batch = head;
      } while (!batches.compare_exchange_weak(head, first, std::memory_order_release,
                                               std::memory_order_relaxed));
    }
    /*! \brief One batch (its nodes linked by `next`), or null when there is none. */
    Node* PopBatch() {
      Node* all = batches.exchange(nullptr, std::memory_order_acquire);
      if (all == nullptr) return nullptr;
      if (Node* rest = all->link.next_batch) {
        Node* last = rest;
        while (last->link.next_batch != nullptr) last = last->link.next_batch;
        PushBatches(rest, last);
      }
      return all;
    }
  };

  /*! \brief Per-thread lists. Trivially destructible on purpose: see Local(). */
  struct LocalPart {
    Node* free;   // ready for Get
    Node* spill;  // released here, not yet a batch
    size_t spill_count;
    bool flusher_armed;  // this thread's Flusher exists (or existed)
    // Set once the Flusher ran: objects released later in the thread's exit (or in the static
    // destructors after the main thread's) go straight to the shared stack.
    bool exited;

    void* Get() {
      if (exited) {
        Node* n = Shared().PopBatch();
        if (n == nullptr) n = NewChunk();
        if (n->link.next != nullptr) {
          n->link.next->link.next_batch = nullptr;
          Shared().PushBatches(n->link.next, n->link.next);
        }
        return n;
      }
      if (free == nullptr) free = Shared().PopBatch();
      if (free == nullptr) {  // reuse this thread's own releases before carving new memory
        free = spill;
        spill = nullptr;
        spill_count = 0;
      }
      if (free == nullptr) free = NewChunk();
      Node* n = free;
      free = n->link.next;
      return n;
    }
    void Put(Node* n) {
      if (exited) {
        n->link.next = nullptr;
        n->link.next_batch = nullptr;
        Shared().PushBatches(n, n);
        return;
      }
      n->link.next = spill;
      spill = n;
      if (++spill_count == kBatch) {
        n->link.next_batch = nullptr;
        Shared().PushBatches(n, n);
        spill = nullptr;
        spill_count = 0;
      }
    }
    /*! \brief Hand both lists to the shared stack; later traffic bypasses this thread. */
    void Flush() {
      for (Node* list : {free, spill}) {
        if (list != nullptr) Shared().PushBatches(list, list);
      }
      free = spill = nullptr;
      spill_count = 0;
      exited = true;
    }
  };

  /*! \brief Flushes the thread's LocalPart when the thread's thread_locals are destroyed. */
  struct Flusher {
    ~Flusher() { Local().Flush(); }
  };

  static Node* NewChunk() {
    constexpr size_t kChunkBytes = 64 << 10;
    constexpr size_t kCount = kChunkBytes / sizeof(Node) > 0 ? kChunkBytes / sizeof(Node) : 1;
    Node* chunk = static_cast<Node*>(::operator new(kCount * sizeof(Node)));
    for (size_t i = 0; i + 1 < kCount; ++i) chunk[i].link.next = &chunk[i + 1];
    chunk[kCount - 1].link.next = nullptr;
    return chunk;
  }

  static SharedPart& Shared() {
    static SharedPart* shared = new SharedPart();  // intentionally leaked: outlives all threads
    return *shared;
  }
  // The lists must not live in an object with a destructor: the compiler may drop a
  // destructor's stores to its own members (the object is dead afterwards), so a thread still
  // allocating during its exit would keep using lists it already handed to the shared stack
  // and give the same memory out twice. The lists are plain thread-local data (no destructor,
  // zero-initialized); a separate Flusher object, made on first use, flushes them at exit.
  static LocalPart& Local() {
    static thread_local LocalPart local{};
    if (!local.flusher_armed) {
      local.flusher_armed = true;
      static thread_local Flusher flusher;
      (void)flusher;
    }
    return local;
  }
};
#endif  // MXNET_OBJECT_POOL_BYPASS

}  // namespace engine
}  // namespace mxnet

#endif  // MXNET_ENGINE_OBJECT_POOL_H_
