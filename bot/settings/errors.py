"""The one error of the settings database, light to import: the command line catches it without
loading the store."""


class SettingsError(Exception):
    """The settings database cannot be used; the message names it (never with a password)."""

    def localized(self, msg) -> str:
        """The message in ``msg``'s language, when it was given as a note (bot.i18n.Note)."""
        from bot.i18n import said
        return said(self.args[0] if self.args else "", msg)
