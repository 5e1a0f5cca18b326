"""The one exception type a user can cause: its message is a sentence a student understands."""


class SettingsError(ValueError):
    """A setting the app cannot use (a head count that does not divide d_model, an empty sentence, ...).

    The message is written to be shown on screen as it is.
    """
