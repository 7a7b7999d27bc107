// The phantom check's reference: the front end's test phantom (the built-in front end's and the
// FPGA test mode's standard phantom, transport::sim::SceneSpec::standardPhantom for the
// configured probe and sampling) rendered without noise and beamformed on the imaging's grid by
// the CPU reference beamformer, with its point targets; in dual mode (a shot geometry) also a
// laser shot of it (its absorbers at the point targets), beamformed receive-only on the same grid.
// Thread contract: a pure function.
#pragma once

#include "sonolink/engine/engine_backends.h"

namespace sonolink::app {

[[nodiscard]] Result<engine::PhantomReference> phantomReference(const transport::Configure& configure, const beamform::AcquisitionGeometry& geometry,
                                                                const engine::ImagingSetup& imaging,
                                                                const std::optional<beamform::AcquisitionGeometry>& shotGeometry = {});

}  // namespace sonolink::app
