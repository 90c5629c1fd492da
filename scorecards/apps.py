from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ScorecardsConfig(AppConfig):
    name = "scorecards"
    verbose_name = _("Score sheets")

    def ready(self) -> None:
        # The rules engine stays free of Django: it translates its error messages with whatever
        # it is given. Django's gettext translates into the language active when an error is
        # raised (the request's), and leaves them English where none is (management commands).
        from django.utils.translation import gettext

        from scorecards.rules.i18n import translator_set

        translator_set(gettext)

        # A member removed from a club loses the table links and seat claims they hold there.
        from leagues.clubs.services import member_removed
        from scorecards.revoke import member_removed_receiver

        member_removed.connect(member_removed_receiver, dispatch_uid="scorecards.revoke")

        # Every write of a game row keeps its sheet version for the "nothing changed" poll,
        # which is answered before the session and the account are read.
        from django.db.models.signals import post_delete, post_save

        from kaiser_league.ops_middleware import early_answer_register
        from scorecards.models import Game
        from scorecards.poll import early_answer, on_game_deleted, on_game_saved

        post_save.connect(on_game_saved, sender=Game, dispatch_uid="scorecards.poll.saved")
        post_delete.connect(on_game_deleted, sender=Game, dispatch_uid="scorecards.poll.deleted")
        early_answer_register(early_answer)
