"""Webhooks: signed deliveries of a tournament's events to the organizer's endpoints, and of a
club's events to the club's."""
