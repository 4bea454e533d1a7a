//! The type converter (upstream TritonGPUTypeConverter): a ranked tensor
//! without a layout gets the default blocked layout for its shape, a pointer
//! to such a tensor points to the converted tensor, and every other type,
//! tensors that already have a layout included, stays as it is. A type is
//! legal when the converter leaves it unchanged.
use super::driver::Conversion;
use crate::ir::{tensor_parts, tensor_type};
use melior::ir::{Attribute, Location, Type, TypeLike};
use tritium_dialects::access::ranked_tensor;
use tritium_dialects::{
    layout::attribute_of,
    types::{pointer, pointer_parts},
};
use tritium_layout::Layout;

impl<'c: 'a, 'a> Conversion<'c, 'a> {
    /// The type upstream's converter gives `ty`.
    pub(super) fn convert_type(&mut self, ty: Type<'c>) -> Result<Type<'c>, String> {
        if let Ok(tensor) = ranked_tensor(ty) {
            if tensor.encoding().is_some() {
                return Ok(ty);
            }
            let (shape, element, _) =
                tensor_parts(ty).ok_or_else(|| format!("cannot give a layout to {ty}: its shape is not static"))?;
            let layout = self.default_layout_attribute(&shape, ty)?;
            return Ok(tensor_type(&shape, element, Some(layout)));
        }
        if let Some((pointee, address_space)) = pointer_parts(ty) {
            if ranked_tensor(pointee).is_ok() {
                return Ok(pointer(self.convert_type(pointee)?, address_space));
            }
        }
        Ok(ty)
    }

    /// Whether the converter leaves `ty` unchanged.
    pub(super) fn is_legal_type(&mut self, ty: Type<'c>) -> bool {
        self.convert_type(ty).is_ok_and(|converted| converted == ty)
    }

    /// The attribute of `layout`. The rules only build valid layouts; should
    /// one not be, the attribute builder reports why at `location`.
    pub(super) fn layout_attribute(&self, layout: &Layout, location: Location<'c>) -> Result<Attribute<'c>, String> {
        attribute_of(layout, location).ok_or_else(|| format!("cannot build the layout {layout:?}"))
    }

    /// The default layout for `shape` as an attribute, made once per shape.
    fn default_layout_attribute(&mut self, shape: &[i64], ty: Type<'c>) -> Result<Attribute<'c>, String> {
        if let Some(attribute) = self.default_layouts.get(shape) {
            return Ok(*attribute);
        }
        let layout = self.grid.default_layout(shape).map_err(|e| format!("cannot give a layout to {ty}: {e}"))?;
        // SAFETY: `context_ref` (which `to_ref` borrows) and the context outlive its use.
        let context_ref = ty.context();
        let context = unsafe { context_ref.to_ref() };
        let attribute = self.layout_attribute(&Layout::Blocked(layout), Location::unknown(context))?;
        self.default_layouts.insert(shape.to_vec(), attribute);
        Ok(attribute)
    }
}
