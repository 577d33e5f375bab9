"""The official Python MCP SDK's client (`mcp` 2.3.0) as a test peer: connects to a Streamable HTTP
URL in the given mode (`legacy`: the initialize handshake; `2026-07-28`: the modern era, no
handshake; `auto`: server/discover, falling back to initialize), lists the tools, calls
`add {a: 1, b: 2}` and prints one JSON line: the tool names, the sum's text and the protocol
version the connection used. A failure prints `{"error": "<type>: <message>"}` and exits 1.

Usage: python client.py <url> <mode>
"""

from __future__ import annotations

import asyncio
import json
import sys

from mcp import Client
from mcp_types import Implementation


async def run(url: str, mode: str) -> dict[str, object]:
    info = Implementation(name="mcp-sunset-python-test-client", version="1.0.0")
    async with Client(url, mode=mode, client_info=info) as client:
        tools = await client.list_tools()
        result = await client.call_tool("add", {"a": 1, "b": 2})
        text = next((block.text for block in result.content if getattr(block, "type", None) == "text"), "")
        return {"toolNames": [tool.name for tool in tools.tools], "sum": text, "protocolVersion": client.protocol_version}


def main() -> None:
    url, mode = sys.argv[1], sys.argv[2]
    try:
        print(json.dumps(asyncio.run(run(url, mode))), flush=True)
    except BaseException as error:
        cause = error
        # The transport's task groups wrap what went wrong in (nested) exception groups.
        while getattr(cause, "exceptions", None):
            cause = cause.exceptions[0]
        print(json.dumps({"error": f"{type(cause).__name__}: {cause}"}), flush=True)
        sys.exit(1)


if __name__ == "__main__":
    main()
