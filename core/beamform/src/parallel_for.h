// parallelFor: body(i) for i in [0, count), shared over `threads` threads (0: one per hardware
// thread): each thread one index, then the rest taken one at a time by whichever thread is free;
// the calling thread takes a share. The threads are a pool started the first time a thread
// count is asked for and kept for the process (a live image must not start threads per frame);
// calls that use the same pool take turns. Its threads wait for the next call, and the caller
// for the last of them, spinning up to 100 us before they sleep.
// Thread contract: body must be safe to call concurrently for different indices, and must not
// itself call parallelFor.
#pragma once

#include <cstddef>
#include <memory>
#include <type_traits>

namespace sonolink::beamform {

// A non-owning reference to a callable body(args...), valid for the call it is passed to: unlike
// std::function, nothing is allocated whatever the body captures (the envelope's per-frame
// path must allocate nothing).
template <typename... Args> class BodyRef {
public:
    template <typename F, typename = std::enable_if_t<!std::is_same_v<std::decay_t<F>, BodyRef>>>
    BodyRef(F&& body) noexcept  // NOLINT: converts from any callable, as std::function does
        : object_(const_cast<void*>(static_cast<const void*>(std::addressof(body)))),
          call_([](void* object, Args... args) { (*static_cast<std::remove_reference_t<F>*>(object))(args...); }) {}
    void operator()(Args... args) const { call_(object_, args...); }

private:
    void* object_;
    void (*call_)(void*, Args...);
};

using IndexedBody = BodyRef<std::size_t>;

void parallelFor(std::size_t count, unsigned threads, IndexedBody body);

}  // namespace sonolink::beamform
