// APOD-compatible client and the SpacePhoto type (issue 8).
