"""The address other devices of the local network reach this computer at (a hall laptop serving
the phones at the tables). Plain Python with no Django, so the Makefile runs it before any
package is installed: `python3 kaiser_league/lan.py` prints the address."""

from __future__ import annotations

import socket

LOOPBACK = "127.0.0.1"


def lan_address() -> str:
    """This computer's IPv4 address on the network its default route leaves by; the loopback
    address when it has none (no network: only this computer's browser can reach the server).
    Connecting a UDP socket sends nothing: it only makes the system choose the interface."""
    probe = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        probe.connect(("10.255.255.255", 1))
        address = str(probe.getsockname()[0])
    except OSError:
        return LOOPBACK
    finally:
        probe.close()
    return address if address and address != "0.0.0.0" else LOOPBACK


if __name__ == "__main__":
    print(lan_address())
