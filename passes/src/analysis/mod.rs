//! Analyses shared by passes: what a pass needs to know about IR beyond its
//! types (value properties, def-use slices), computed once and queried.
pub mod alias;
pub mod axis_info;
pub mod scratch;
pub mod slice;
pub mod type_facts;
