"""Tests of the live side (tables/live/): the websocket consumer, its handlers, the frames each
phone is drawn, the channel layer in memory."""
