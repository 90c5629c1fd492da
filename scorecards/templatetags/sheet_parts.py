"""The tag of the sheet page's kept parts (`scorecards.sheet_parts`):

    {% kept "name" value ... %}...{% endkept %}

draws its content once for each set of `value`s in the sheet's shared entry, where the context
holds the page's parts (`sheet_parts`: the sheet page of a blank form); anywhere else, and with
a value that cannot be part of a key, it draws its content as if the tag were not there. The
values must be everything the content shows besides what the shared entry is drawn from."""

from __future__ import annotations

from django import template
from django.template.base import FilterExpression, NodeList, Parser, Token
from django.template.context import Context
from django.utils.safestring import SafeString

register = template.Library()


class KeptNode(template.Node):
    def __init__(self, name: str, values: list[FilterExpression], nodelist: NodeList) -> None:
        self.name = name
        self.values = values
        self.nodelist = nodelist

    def render(self, context: Context) -> SafeString | str:
        parts = context.get("sheet_parts")
        if parts is None:
            return self.nodelist.render(context)
        key = (self.name, *(value.resolve(context) for value in self.values))
        return parts.part(key, lambda: self.nodelist.render(context))


@register.tag("kept")
def kept(parser: Parser, token: Token) -> KeptNode:
    """`{% kept "name" value ... %}...{% endkept %}`: the name a quoted string, then the values
    (variables, with filters) the content shows besides the shared entry."""
    bits = token.split_contents()
    if len(bits) < 2 or bits[1][0] not in "\"'" or bits[1][0] != bits[1][-1]:
        raise template.TemplateSyntaxError("kept: a quoted name first")
    nodelist = parser.parse(("endkept",))
    parser.delete_first_token()
    return KeptNode(bits[1][1:-1], [parser.compile_filter(bit) for bit in bits[2:]], nodelist)
