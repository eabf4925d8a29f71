"""Operator accounts from the command line: `python -m manga_app.accounts.operators
grant EMAIL` gives the account the Firebase custom claim `admin: true` (on the
Auth emulator of `make run`, the account is made when it does not exist yet,
and a Google sign-in with that address in the emulator's sign-in page is that
account); `revoke EMAIL` takes it away; `list` names the operators by claim.
A claim reaches the site with the account's next ID token: sign in again.
Operators named in ADMIN_EMAILS need nothing of this."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from firebase_admin import auth as admin_auth
from firebase_admin import exceptions as admin_exceptions

from manga_app.accounts.settings import FirebaseConfigError, get_firebase_config
from manga_app.accounts.verify import admin_app


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m manga_app.accounts.operators", description=__doc__.split("\n\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)
    for name, text in (("grant", "make the account an operator"), ("revoke", "make the account a reader again")):
        command = commands.add_parser(name, help=text)
        command.add_argument("email", metavar="EMAIL")
    commands.add_parser("list", help="the accounts with the admin claim")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    try:
        config = get_firebase_config()
        app = admin_app(config)
        if args.command == "list":
            for user in admin_auth.list_users(app=app).iterate_all():
                if (user.custom_claims or {}).get("admin") is True:
                    print(user.email or user.uid)
            return 0
        email = args.email.strip().lower()
        try:
            user = admin_auth.get_user_by_email(email, app=app)
        except admin_auth.UserNotFoundError:
            if args.command == "revoke" or not config.emulated:
                print(f"No account has the e-mail {email}: it must sign in once first.", file=sys.stderr)
                return 2
            user = admin_auth.create_user(email=email, email_verified=True, app=app)
        claims = {key: value for key, value in (user.custom_claims or {}).items() if key != "admin"}
        if args.command == "grant":
            claims["admin"] = True
        admin_auth.set_custom_user_claims(user.uid, claims or None, app=app)
    except (FirebaseConfigError, ValueError) as error:
        print(f"Firebase settings: {error}", file=sys.stderr)
        return 2
    except admin_exceptions.FirebaseError as error:
        print(f"Firebase refused: {error}", file=sys.stderr)
        return 1
    except OSError as error:
        print(f"Firebase could not be reached ({error.__class__.__name__}): is the Auth emulator running "
              "(make run starts it)?", file=sys.stderr)
        return 1
    where = "the Auth emulator" if config.emulated else f"project {config.project_id}"
    done = "is an operator" if args.command == "grant" else "is a reader"
    print(f"{email} {done} on {where}; it takes effect at its next sign-in.")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
