import os
import re
import unittest

import support

import coordc_airflow

PYPROJECT = os.path.join(support.REPO, "airflow-runtime", "pyproject.toml")


class Package(unittest.TestCase):
    def test_one_version(self):
        """The package, the coordc it requires and the coordc repository (Cargo.toml) agree."""
        with open(PYPROJECT) as f:
            pyproject = f.read()
        with open(os.path.join(support.REPO, "Cargo.toml")) as f:
            cargo = re.search(r'^version = "([^"]+)"', f.read(), re.MULTILINE).group(1)
        self.assertEqual(re.search(r'^version = "([^"]+)"', pyproject, re.MULTILINE).group(1), cargo)
        self.assertIn(f'"coordc=={cargo}"', pyproject)
        self.assertEqual(coordc_airflow.__version__, cargo)

    def test_public_names(self):
        for name in coordc_airflow.__all__:
            self.assertTrue(hasattr(coordc_airflow, name), name)
        with self.assertRaises(AttributeError):
            coordc_airflow.nothing  # noqa: B018

    def test_plugin_registers_the_timetable(self):
        from importlib.metadata import entry_points

        (entry,) = [e for e in entry_points(group="airflow.plugins") if e.name == "coordc"]
        self.assertEqual(entry.load().timetables, [coordc_airflow.OozieTimetable])


if __name__ == "__main__":
    unittest.main()
