"""The version of the published contracts (the JSON Schemas and the AsyncAPI document).

Semantic versioning of what a partner reads on the wire: a new optional field or a new message
type in a union is a minor change; a change that can break a reader gets a new ``type`` tag
(``result.v2``) and a new major, which moves every schema's ``$id`` (``.../v<major>.json``).
"""

CONTRACT_VERSION = "1.3.0"
CONTRACT_MAJOR = int(CONTRACT_VERSION.split(".")[0])
