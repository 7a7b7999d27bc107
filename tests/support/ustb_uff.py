"""Writes UFF channel_data files with h5py as other tools lay them out: the "files written by
others" of the SonoLink tests.

layout="pyuff_ustb" (the default) is pyuff_ustb's writer (pyuff_ustb/objects/uff.py,
write_object): every object a group with attributes class, name, array = [0] and size = [1 1];
a list of n objects a group with class (the items' class), name, array = [1], size = [1 n],
whose items are named after the property, sequence_0001, sequence_0002, ...; numbers 0-d
datasets with class "single", name, complex = [0] and imaginary = [0]; the wavefront an enum
dataset [[value]] of class "uff.wavefront".
layout="ustb" is USTB's MATLAB writer: numbers as [[value]] with complex = 0, items named
after the property too. layout="sonolink_0_1" is what SonoLink wrote before it took USTB's
names: USTB's layout with list items named wave_0001, wave_0002, ..."""
import h5py
import numpy as np

LAYOUTS = ("pyuff_ustb", "ustb", "sonolink_0_1")


class _Writer:
    def __init__(self, layout):
        assert layout in LAYOUTS, layout
        self.layout = layout

    def obj(self, group, uff_class, name, items=0):
        group.attrs["class"] = uff_class
        if self.layout == "pyuff_ustb":
            group.attrs["name"] = name
            group.attrs["array"] = np.array([1 if items else 0])
            group.attrs["size"] = np.array([1, max(items, 1)])
        elif items:
            group.attrs["size"] = np.array([1, items], dtype=np.float64)

    def scalar(self, group, name, value):
        if self.layout == "pyuff_ustb":
            ds = group.create_dataset(name, data=np.array(value, dtype=np.float64))
            ds.attrs["class"] = "single"
            ds.attrs["name"] = name
            ds.attrs["complex"] = np.array([0])
            ds.attrs["imaginary"] = np.array([0])
        else:
            ds = group.create_dataset(name, data=np.array([[value]], dtype=np.float64))
            ds.attrs["complex"] = np.array([[0]], dtype=np.uint8)

    def point(self, group, name, distance, azimuth):
        g = group.create_group(name)
        self.obj(g, "uff.point", name)
        for key, value in (("distance", distance), ("azimuth", azimuth), ("elevation", 0.0)):
            self.scalar(g, key, value)

    def item_name(self, prop, i):
        return f"{'wave' if self.layout == 'sonolink_0_1' else prop}_{i + 1:04d}"


def write_ustb(path, data, angles, element_x, drop=None, geometry_elements=None, modulation_frequency=0.0, layout="pyuff_ustb",
               wavefront=0, sampling_frequency=25e6, initial_time=1e-6, sound_speed=1500.0):
    """A channel_data group (data seen from HDF5 as frames x waves x channels x samples).
    Complex data (IQ, with a modulation frequency) is a group of "real" and "imag" with complex = 1.
    wavefront: USTB's uff.wavefront of every wave, 0 plane, 2 photoacoustic (its source ignored:
    written at the origin, as USTB's uff.wave leaves it)."""
    w = _Writer(layout)
    with h5py.File(path, "w") as f:
        g = f.create_group("channel_data")
        w.obj(g, "uff.channel_data", "channel_data")
        for key, value in (("sampling_frequency", sampling_frequency), ("initial_time", initial_time), ("sound_speed", sound_speed),
                           ("modulation_frequency", modulation_frequency)):
            if key != drop:
                w.scalar(g, key, value)
        if np.iscomplexobj(data):
            d = g.create_group("data")
            d.create_dataset("real", data=data.real.astype(np.float32))
            d.create_dataset("imag", data=data.imag.astype(np.float32))
            d.attrs["complex"] = np.array([[1]], dtype=np.uint8)
        else:
            d = g.create_dataset("data", data=data)
            d.attrs["complex"] = np.array([[0]], dtype=np.uint8)
        probe = g.create_group("probe")
        w.obj(probe, "uff.linear_array", "probe")
        n = geometry_elements or len(element_x)
        geometry = np.zeros((7, n))
        geometry[0, :] = (list(element_x) * 2)[:n]
        probe.create_dataset("geometry", data=geometry).attrs["complex"] = 0
        w.point(probe, "origin", 0.0, 0.0)
        seq = g.create_group("sequence")
        w.obj(seq, "uff.wave", "sequence", items=len(angles) if len(angles) > 1 else 0)
        waves = [seq]
        if len(angles) > 1:
            waves = []
            for i in range(len(angles)):
                name = w.item_name("sequence", i)
                waves.append(seq.create_group(name))
                w.obj(waves[-1], "uff.wave", name)
        for wave, angle in zip(waves, angles):
            if w.layout == "pyuff_ustb":
                ds = wave.create_dataset("wavefront", data=np.array([[wavefront]]))
                ds.attrs["class"] = "uff.wavefront"
                ds.attrs["name"] = "wavefront"
            else:
                wave.create_dataset("wavefront", data=np.array([[wavefront]], dtype=np.float64))
            w.point(wave, "source", 0.0 if wavefront == 2 else np.inf, angle)
            w.point(wave, "origin", 0.0, 0.0)
            w.scalar(wave, "delay", 0.0)
            w.scalar(wave, "sound_speed", sound_speed)
