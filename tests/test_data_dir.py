"""Where the catalog and the settings database go by default: var/ in a source checkout, the
user's data directory for an installed package — never inside site-packages; the environment
variables override both."""
import os
import shutil
import subprocess
import sys

from bot.config import Config, default_var_dir
from tests.helpers import PROJECT


def test_a_checkout_keeps_its_data_in_var(tmp_path):
    assert Config.from_env({}).catalog_path == PROJECT / "var" / "catalog.sqlite3"   # make run, the tests
    checkout = tmp_path / "wayfinder-src"
    (checkout / "bot").mkdir(parents=True)
    (checkout / "data").mkdir()
    (checkout / "pyproject.toml").write_text("[project]\nname = 'wayfinder'\n")
    assert default_var_dir(checkout / "bot") == checkout / "var"


def test_an_installed_package_uses_the_users_data_directory(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "share"))
    package = tmp_path / "lib" / "python3" / "site-packages" / "bot"
    (package / "data").mkdir(parents=True)
    assert default_var_dir(package) == tmp_path / "share" / "wayfinder"


def _installed(tmp_path):
    """The package as pip installs it: bot/ with its data as bot/data, in a site-packages folder."""
    site = tmp_path / "site-packages"
    shutil.copytree(PROJECT / "bot", site / "bot", ignore=shutil.ignore_patterns("__pycache__"))
    (site / "bot" / "data").symlink_to(PROJECT / "data")
    env = {k: v for k, v in os.environ.items() if not k.startswith(("WAYFINDER_", "DISCORD_"))}
    env.update(PYTHONPATH=str(site), XDG_DATA_HOME=str(tmp_path / "share"), WAYFINDER_LOG_LEVEL="WARNING")
    return site, env


def test_an_installed_wayfinder_builds_its_catalog_in_the_users_data_directory(tmp_path):
    site, env = _installed(tmp_path)
    out = subprocess.run([sys.executable, "-m", "bot", "data", "info"], cwd=tmp_path, env=env,
                         capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    home = tmp_path / "share" / "wayfinder"
    assert f"catalog: {home / 'catalog.sqlite3'}" in out.stdout.splitlines()
    assert (home / "catalog.sqlite3").is_file()
    assert not list(site.rglob("*.sqlite3*")) and not (site / "var").exists()


def test_the_environment_overrides_the_default_of_an_installed_package(tmp_path):
    site, env = _installed(tmp_path)
    env.update(WAYFINDER_CATALOG=str(tmp_path / "elsewhere" / "cards.sqlite3"),
               WAYFINDER_SETTINGS_DB=str(tmp_path / "elsewhere" / "settings.sqlite3"))
    code = ("from bot.config import Config; c = Config.from_env();"
            " print(c.catalog_path, c.settings_path, c.downloads_dir, sep='\\n')")
    out = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, env=env, capture_output=True, text=True,
                         timeout=60)
    assert out.returncode == 0, out.stderr
    assert out.stdout.splitlines() == [str(tmp_path / "elsewhere" / "cards.sqlite3"),
                                       str(tmp_path / "elsewhere" / "settings.sqlite3"),
                                       str(tmp_path / "share" / "wayfinder" / "downloads")]
