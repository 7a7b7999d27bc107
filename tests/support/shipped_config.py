"""A SonoLink configuration file read as a dict that still works when written elsewhere (its
self-test steps file named by its full path), and the self-test's limits as the station sees
them (the steps file's, where the configuration names one)."""
import json
import os
import re


def load(path):
    """The configuration at path, its selftest.steps_file made absolute."""
    with open(path, encoding="utf-8") as f:
        config = json.load(f)
    selftest = config.get("selftest", {})
    steps = selftest.get("steps_file")
    if steps and not os.path.isabs(steps):
        selftest["steps_file"] = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(path)), steps))
    return config


def selftest_limits(config):
    """Every self-test limit: the steps file's (JSON with // comment lines, as SonoLink reads it),
    else the selftest section's own keys."""
    selftest = config.get("selftest", {})
    if "steps_file" not in selftest:
        return dict(selftest)
    with open(selftest["steps_file"], encoding="utf-8") as f:
        text = re.sub(r"(?m)^\s*//.*$", "", f.read())
    limits = {}
    for step in json.loads(text)["steps"]:
        limits.update(step.get("limits", {}))
        if step["name"] == "link BER" and "timeout_s" in step:
            limits["ber_timeout_s"] = step["timeout_s"]
    return limits
