"""The wheel carries pnpgen's own files: the checkout's fonts/ (with their licences), the shared
templates/ and the built-in packs of components/ are copied into generator/shipped/, where
generator/resources.py finds them. An editable install reads them in place instead."""
import os
import shutil

from setuptools import setup
from setuptools.command.build_py import build_py

SHIPPED_FOLDERS = ("fonts", "templates", "components")     # as generator/resources.py names them


class BuildWithShippedFiles(build_py):
    def run(self):
        super().run()
        if getattr(self, "editable_mode", False):
            return
        for folder in SHIPPED_FOLDERS:
            target = os.path.join(self.build_lib, "generator", "shipped", folder)
            shutil.rmtree(target, ignore_errors=True)      # nothing left from an earlier build
            self.copy_tree(folder, target, preserve_symlinks=False)


setup(cmdclass={"build_py": BuildWithShippedFiles})
