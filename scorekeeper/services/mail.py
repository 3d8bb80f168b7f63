"""Outgoing mail: written in the request's transaction, sent by a Celery task after it
commits, and marked sent once the mail server took it (a task run twice sends once)."""

from __future__ import annotations

from datetime import timedelta

from django.core.mail import EmailMessage, EmailMultiAlternatives
from django.db import transaction
from django.utils import timezone

from .. import jobs
from ..models import OutgoingEmail


def email_queue(*, message: EmailMessage) -> OutgoingEmail:
    """Keep ``message`` and ask for it to be sent once the current transaction commits."""
    html = ""
    for content, mimetype in getattr(message, "alternatives", []):
        if mimetype == "text/html":
            html = str(content)
    email = OutgoingEmail.objects.create(
        to=list(message.to),
        subject=str(message.subject),
        body=str(message.body),
        html=html,
        from_email=message.from_email or "",
    )
    jobs.send_email(email.pk)
    return email


@transaction.atomic
def email_send(*, email_id: int) -> bool:
    """Send the stored email unless it was sent already; True when this call sent it."""
    email = OutgoingEmail.objects.select_for_update().filter(pk=email_id).first()
    if email is None or email.sent_at is not None:
        return False
    email.attempts += 1
    email.save(update_fields=["attempts"])
    message = EmailMultiAlternatives(
        subject=email.subject,
        body=email.body,
        from_email=email.from_email or None,
        to=list(email.to),
    )
    if email.html:
        message.attach_alternative(email.html, "text/html")
    message.send()
    email.sent_at = timezone.now()
    email.save(update_fields=["sent_at"])
    return True


def emails_unsent(*, older_than_seconds: int = 300) -> list[int]:
    """Stored emails still unsent some time after they were written (a broker that was
    down, a mail server that refused): what a sweep sends again."""
    cutoff = timezone.now() - timedelta(seconds=older_than_seconds)
    return list(
        OutgoingEmail.objects.filter(sent_at__isnull=True, created_at__lt=cutoff)
        .order_by("created_at")
        .values_list("pk", flat=True)[:500]
    )


def email_queue_text(*, to: list[str], subject: str, body: str) -> OutgoingEmail:
    """A plain-text email from the site's address, sent once the transaction commits."""
    return email_queue(message=EmailMessage(subject=subject, body=body, to=to))
