"""The one error of the settings database, light to import: the command line catches it without
loading the store."""


class SettingsError(Exception):
    """The settings database cannot be used; the message names it (never with a password), often
    as a note, said in the reader's language by bot.i18n.said."""
