// Package action is the closed, typed vocabulary of low-level actions that
// skills emit and bodies execute: move_to, break_block, place_block, use_item,
// interact, equip, open_container, close_container, transfer_items, craft,
// wait and chat.
//
// Each action kind is a Go struct with typed fields and a parameter schema
// ([Spec]) naming each parameter's [ParamType]. Template skills build actions
// from untyped maps with [FromParams]; the wire form is a flat JSON object with
// a "type" field ([Marshal], [Unmarshal]). The same ParamType system types skill
// parameters, so a skill spec and the actions it emits share one notion of
// "item_id", "block_pos" or "duration".
package action
