"""The load benchmark's parts: visitors over socket.io, crowds of them, wrk, process memory."""
