"""Writes UFF channel_data files in USTB's own layout with h5py, as other tools do: the
"files written by others" of the SonoLink tests."""
import h5py
import numpy as np


def scalar(group, name, value):
    ds = group.create_dataset(name, data=np.array([[value]], dtype=np.float64))
    ds.attrs["complex"] = np.array([[0]], dtype=np.uint8)


def point(group, name, distance, azimuth):
    g = group.create_group(name)
    g.attrs["class"] = "uff.point"
    for key, value in (("distance", distance), ("azimuth", azimuth), ("elevation", 0.0)):
        scalar(g, key, value)


def write_ustb(path, data, angles, element_x, drop=None, geometry_elements=None, modulation_frequency=0.0):
    """A channel_data group as USTB writes it (data seen from HDF5 as frames x waves x channels x samples).
    Complex data (IQ, with a modulation frequency) is a group of "real" and "imag" with complex = 1."""
    with h5py.File(path, "w") as f:
        g = f.create_group("channel_data")
        g.attrs["class"] = "uff.channel_data"
        for key, value in (("sampling_frequency", 25e6), ("initial_time", 1e-6), ("sound_speed", 1500.0),
                           ("modulation_frequency", modulation_frequency)):
            if key != drop:
                scalar(g, key, value)
        if np.iscomplexobj(data):
            d = g.create_group("data")
            d.create_dataset("real", data=data.real.astype(np.float32))
            d.create_dataset("imag", data=data.imag.astype(np.float32))
            d.attrs["complex"] = np.array([[1]], dtype=np.uint8)
        else:
            d = g.create_dataset("data", data=data)
            d.attrs["complex"] = np.array([[0]], dtype=np.uint8)
        probe = g.create_group("probe")
        probe.attrs["class"] = "uff.linear_array"
        n = geometry_elements or len(element_x)
        geometry = np.zeros((7, n))
        geometry[0, :] = (list(element_x) * 2)[:n]
        probe.create_dataset("geometry", data=geometry).attrs["complex"] = 0
        seq = g.create_group("sequence")
        waves = [seq] if len(angles) == 1 else []
        if len(angles) > 1:
            seq.attrs["size"] = np.array([1, len(angles)], dtype=np.float64)
            waves = [seq.create_group(f"wave_{i + 1:04d}") for i in range(len(angles))]
        for wave, angle in zip(waves, angles):
            wave.attrs["class"] = "uff.wave"
            wave.create_dataset("wavefront", data=np.array([[0]], dtype=np.float64))
            point(wave, "source", np.inf, angle)
