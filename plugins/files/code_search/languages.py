"""What counts as a definition in each language, and how its name is found.

Grammars come from ``tree-sitter-language-pack``. A definition is a node whose type is in
:data:`DEFINITIONS` for its language; its name is the node's ``name`` field or, for C and C++
(whose functions and typedefs name themselves through declarators), the identifier at the end
of the ``declarator`` chain. A few node types define something only with a body or a value
(``struct S x;`` merely uses ``S``; ``const g = 1`` is no function) — :data:`NEEDS` says which.
"""

from __future__ import annotations

from collections.abc import Mapping

from tree_sitter import Node

__all__ = ["DEFINITIONS", "EXTENSIONS", "NEEDS", "definition_name"]

EXTENSIONS: Mapping[str, str] = {
    ".py": "python", ".pyi": "python",
    ".js": "javascript", ".mjs": "javascript", ".cjs": "javascript", ".jsx": "javascript",
    ".ts": "typescript", ".mts": "typescript", ".cts": "typescript", ".tsx": "tsx",
    ".rs": "rust", ".go": "go", ".java": "java",
    ".c": "c", ".h": "c",
    ".cc": "cpp", ".cpp": "cpp", ".cxx": "cpp", ".hh": "cpp", ".hpp": "cpp", ".hxx": "cpp",
    ".sh": "bash", ".bash": "bash",
}
"""File extension → grammar name."""

_JS = frozenset({"function_declaration", "generator_function_declaration", "class_declaration",
                 "method_definition", "variable_declarator"})
_TS = _JS | {"interface_declaration", "type_alias_declaration", "enum_declaration",
             "abstract_class_declaration", "function_signature", "method_signature",
             "internal_module"}
_C = frozenset({"function_definition", "struct_specifier", "union_specifier", "enum_specifier",
                "type_definition"})

DEFINITIONS: Mapping[str, frozenset[str]] = {
    "python": frozenset({"function_definition", "class_definition"}),
    "javascript": _JS,
    "typescript": _TS,
    "tsx": _TS,
    "rust": frozenset({"function_item", "function_signature_item", "struct_item", "enum_item",
                       "union_item", "trait_item", "mod_item", "const_item", "static_item",
                       "type_item", "macro_definition"}),
    "go": frozenset({"function_declaration", "method_declaration", "type_spec",
                     "type_alias"}),
    "java": frozenset({"class_declaration", "interface_declaration", "enum_declaration",
                       "record_declaration", "annotation_type_declaration",
                       "method_declaration", "constructor_declaration"}),
    "c": _C,
    "cpp": _C | {"class_specifier", "namespace_definition", "alias_declaration"},
    "bash": frozenset({"function_definition"}),
}
"""Grammar → the node types that define a named thing."""

NEEDS: Mapping[str, tuple[str, frozenset[str]]] = {
    "struct_specifier": ("body", frozenset()),
    "union_specifier": ("body", frozenset()),
    "enum_specifier": ("body", frozenset()),
    "class_specifier": ("body", frozenset()),
    "variable_declarator": ("value", frozenset({"arrow_function", "function_expression",
                                                "function", "class", "generator_function"})),
}
"""Node type → (field that must be present, the types it must have; empty: any)."""

_NAME_TYPES = frozenset({"identifier", "field_identifier", "type_identifier",
                         "qualified_identifier", "destructor_name", "operator_name",
                         "namespace_identifier"})


def _qualifies(node: Node) -> bool:
    need = NEEDS.get(node.type)
    if need is None:
        return True
    field, types = need
    child = node.child_by_field_name(field)
    return child is not None and (not types or child.type in types)


def definition_name(node: Node, language: str) -> Node | None:
    """The node naming the definition ``node`` is, or ``None`` when it is not one.

    :param node: any node of a tree parsed with ``language``'s grammar.
    :param language: the grammar's name.
    :returns: the name node (its text is the defined name).
    """
    if node.type not in DEFINITIONS[language] or not _qualifies(node):
        return None
    name = node.child_by_field_name("name")
    if name is not None:
        return name
    declarator = node.child_by_field_name("declarator")
    while declarator is not None and declarator.type not in _NAME_TYPES:
        declarator = declarator.child_by_field_name("declarator")
    return declarator
