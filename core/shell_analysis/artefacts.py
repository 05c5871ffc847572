"""Regenerable artefacts: what a build, a test run or a package manager makes again.

The one list of names that ``find -delete`` (:mod:`.routine_destructive`) and ``rm``
(:mod:`.artefact_removal`) treat as safe to remove inside the project. Built from the public
catalogue of ignore templates, github/gitignore (commit dcc0fc7b, 2026-05-21): ``Python``,
``Node``, ``Go``, ``Rust``, ``Java``, ``Gradle``, ``Maven``, ``C``, ``C++`` and ``CMake``
``.gitignore``, and the file managers' metadata of ``Global/macOS`` and ``Global/Windows``;
only the entries a tool regenerates were taken, plus four build caches their tools' own
documentation tells a project to ignore (Turborepo, Angular CLI, SWC, Astro).

Left out although those templates ignore them, because they can hold what nobody can
regenerate, or because the name is too generic to mean an artefact:

| left out                                          | why                                    |
| ------------------------------------------------- | -------------------------------------- |
| ``.env``, ``.env.*``, ``.envrc``, ``.pypirc``,    | secrets and settings                   |
| ``local_settings.py``, ``.streamlit/secrets.toml``|                                        |
| ``db.sqlite3``, ``*.sqlite*``, ``*.db``, ``*.rdb``,| a local database's data               |
| ``*.aof``, ``instance``, ``.dynamodb``, ``mnesia``,|                                       |
| ``rabbitmq-data``, ``celerybeat-schedule``        |                                        |
| ``*.log``, ``logs``, ``pip-log.txt``              | what happened, kept for diagnosis      |
| ``.idea``, ``.vscode``, ``.project``,             | editor and IDE settings                |
| ``.classpath``, ``.spyderproject``,               |                                        |
| ``.ropeproject``, ``ipython_config.py``,          |                                        |
| ``profile_default``, ``gradle-app.setting``       |                                        |
| ``.ipynb_checkpoints``, ``*.bak``, ``*.swp``,     | backups and unsaved edits              |
| ``*.tmp``, ``.temp``                              |                                        |
| ``*.jar``, ``*.war``, ``*.ear``, ``*.zip``,       | archives: often vendored or downloaded |
| ``*.tar.gz``, ``*.rar``, ``*.tgz``                |                                        |
| ``*.spec``, ``*.manifest``, ``MANIFEST``,         | often written by hand                  |
| ``Makefile``, ``go.work``, ``*.pot``              |                                        |
| ``lib``, ``lib64``, ``var``, ``env``, ``ENV``,    | generic names a project's sources use  |
| ``downloads``, ``debug``, ``cover``, ``Testing``, |                                        |
| ``site``, ``vendor``, ``build-*``, ``coverage.*`` |                                        |
| ``*.d``, ``*.mod*``, ``*.map``, ``*.hex``,        | also a language's sources, test data   |
| ``*.cmd``, ``*.app``, ``*.out``, ``*.test``,      | or a science format (``*.d`` is D,     |
| ``*.exp``, ``*.obj``, ``*.pdb``, ``.vitepress``,  | ``go.mod``, golden ``*.out`` files,    |
| ``.pixi``                                         | lit ``*.test``, Wavefront ``*.obj``,   |
|                                                   | Protein Data Bank ``*.pdb``, config)   |
"""

from __future__ import annotations

import fnmatch

__all__ = ["KEPT_DATA_GLOBS", "REGENERABLE_GLOBS", "REGENERABLE_NAMES", "is_kept_data",
           "is_regenerable"]

REGENERABLE_NAMES: frozenset[str] = frozenset({
    # Python.gitignore
    "__pycache__", "build", "develop-eggs", "dist", "eggs", ".eggs", "parts", "sdist",
    "wheels", ".installed.cfg", "htmlcov", ".tox", ".nox", ".coverage", ".cache",
    "nosetests.xml", "coverage.xml", ".hypothesis", ".pytest_cache", "_build", ".pybuilder",
    "target", "__pypackages__", ".pdm-build", ".venv", "venv", ".mypy_cache", ".dmypy.json",
    "dmypy.json", ".pyre", ".pytype", "cython_debug", ".ruff_cache", ".webassets-cache",
    ".scrapy",
    # Node.gitignore
    "lib-cov", "coverage", ".nyc_output", ".grunt", "bower_components", "node_modules",
    "jspm_packages", "web_modules", ".npm", ".eslintcache", ".stylelintcache",
    ".yarn-integrity", ".parcel-cache", ".next", "out", ".nuxt", ".output", ".svelte-kit",
    ".docusaurus", ".serverless", ".fusebox", ".vite", ".pnpm-store", ".vscode-test",
    # Go.gitignore
    "profile.cov",
    # Gradle.gitignore, Maven.gitignore
    ".gradle", ".gradletasknamecache", "pom.xml.tag", "pom.xml.releaseBackup",
    "pom.xml.versionsBackup", "pom.xml.next", "dependency-reduced-pom.xml",
    "buildNumber.properties",
    # C.gitignore, C++.gitignore, CMake.gitignore
    ".tmp_versions", "modules.order", "Module.symvers", "Mkfile.old", "CMakeFiles",
    "CMakeCache.txt", "CMakeScripts", "cmake_install.cmake", "install_manifest.txt",
    "compile_commands.json", "CTestTestfile.cmake", "_deps", "vcpkg_installed",
    # Global/macOS.gitignore, Global/Windows.gitignore: the file manager's own metadata
    ".DS_Store", "Thumbs.db", "ehthumbs.db",
    # build caches whose tools' documentation says to ignore them: Turborepo's ``.turbo``,
    # the Angular CLI's ``.angular`` (its cache), SWC's ``.swc``, Astro's ``.astro``
    ".turbo", ".angular", ".swc", ".astro",
})
"""File and directory names a tool regenerates (github/gitignore, see the module docstring)."""

REGENERABLE_GLOBS: tuple[str, ...] = (
    # Python.gitignore (*.py[codz], *$py.class, *.egg-info/, *.egg, .coverage.*, *.cover)
    "*.pyc", "*.pyo", "*.pyd", "*.pyz", "*$py.class", "*.so", "*.egg-info", "*.egg",
    ".coverage.*", "*.cover", "*.py.cover", "*.lcov",
    # Node.gitignore
    "*.tsbuildinfo",
    # Go.gitignore, Rust.gitignore
    "*.exe", "*.exe~", "*.coverprofile", "*.rs.bk",
    # Java.gitignore
    "*.class", "hs_err_pid*", "replay_pid*",
    # C.gitignore, C++.gitignore
    "*.o", "*.ko", "*.elf", "*.ilk", "*.gch", "*.pch", "*.lib", "*.a",
    "*.la", "*.lo", "*.slo", "*.lai", "*.dll", "*.so.*", "*.dylib", "*.dSYM", "*.su",
    "*.idb", "*.dwo", "*.smod",
)
"""Name globs of compiled files and per-run outputs (github/gitignore, as above)."""

KEPT_DATA_GLOBS: tuple[str, ...] = (
    "*.sqlite", "*.sqlite3", "*.db", "*.rdb", "*.aof", "db.sqlite3", "*.log", "*.bak",
    "*.swp", "*.dump")
"""Files the templates ignore but the table above leaves out because they hold data nobody
regenerates: a local database's data, logs kept for diagnosis, backups and unsaved edits."""

_GLOB_CHARACTERS = frozenset("*?[")


def is_regenerable(name: str) -> bool:
    """Tell whether a file name, or a name glob, only ever names regenerable artefacts.

    :param name: one path component (``__pycache__``, ``click.egg-info``), or a glob of one
        (``*.pyc``), trailing ``/`` ignored.
    :returns: true for a catalogued name, a name a catalogued glob matches, or a glob that is
        itself a catalogued glob; a glob of wider scope (``*``, ``*.p*``) is false.
    """
    name = name.rstrip("/")
    if _GLOB_CHARACTERS.intersection(name):
        return name in REGENERABLE_GLOBS
    return name in REGENERABLE_NAMES or any(
        fnmatch.fnmatchcase(name, glob) for glob in REGENERABLE_GLOBS)


def is_kept_data(name: str) -> bool:
    """Tell whether a file name, or a name glob, picks data that is kept, not regenerated.

    :param name: one path component or a glob of one (``*.log``, ``app.sqlite3``).
    :returns: true when a :data:`KEPT_DATA_GLOBS` entry matches it.
    """
    return any(fnmatch.fnmatchcase(name, glob) for glob in KEPT_DATA_GLOBS)
