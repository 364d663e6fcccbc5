// Umbrella header of the xrcrcv library.
#pragma once

#include <xrcrcv/commands.hpp>
#include <xrcrcv/context.hpp>
#include <xrcrcv/error.hpp>
#include <xrcrcv/events.hpp>
#include <xrcrcv/fd.hpp>
#include <xrcrcv/objects.hpp>
#include <xrcrcv/qp_attr.hpp>
#include <xrcrcv/uapi.h>
#include <xrcrcv/wire.hpp>
