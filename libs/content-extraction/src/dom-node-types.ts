// The DOM's node types (Node.ELEMENT_NODE and the rest), which Node.js does not define as globals: the steps that walk
// linkedom's tree read them from here.
export const ELEMENT_NODE = 1;
export const TEXT_NODE = 3;
export const CDATA_SECTION_NODE = 4;
